import { Switch } from 'radix-ui';
import { useId, type ReactNode } from 'react';
import { cn } from '../../components/ui/cn';

/** A labelled on/off row: the words on the left, a Radix switch on the right. */
export function SettingSwitch(props: {
  label: string;
  help: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="py-4">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <label htmlFor={id} className={cn('text-sm font-semibold', props.disabled ? 'text-stone-500' : 'text-ink')}>
            {props.label}
          </label>
          <p id={`${id}-help`} className="mt-0.5 text-sm leading-6 text-stone-500">
            {props.help}
          </p>
        </div>
        <Switch.Root
          id={id}
          checked={props.checked}
          onCheckedChange={props.onCheckedChange}
          disabled={props.disabled}
          aria-describedby={`${id}-help`}
          className={cn(
            'relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-stone-300 transition-colors',
            'data-[state=checked]:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50',
          )}
        >
          <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-5.5" />
        </Switch.Root>
      </div>
      {props.children}
    </div>
  );
}
