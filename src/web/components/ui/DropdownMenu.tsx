import { DropdownMenu as RadixMenu } from 'radix-ui';
import { forwardRef, type ComponentPropsWithoutRef, type ElementRef } from 'react';
import { cn } from './cn';

/**
 * Radix's dropdown menu (focus, keyboard and dismissal handled) in Jotline's style. Not modal: Radix's
 * modal mode hides the rest of the page with aria-hidden while its links stay focusable (axe:
 * aria-hidden-focus); open, arrows move through the items, Escape and Tab close it, focus returns.
 */
export function DropdownMenu(props: ComponentPropsWithoutRef<typeof RadixMenu.Root>) {
  return <RadixMenu.Root modal={false} {...props} />;
}
export const DropdownMenuTrigger = RadixMenu.Trigger;
export const DropdownMenuLabel = RadixMenu.Label;

export const DropdownMenuContent = forwardRef<ElementRef<typeof RadixMenu.Content>, ComponentPropsWithoutRef<typeof RadixMenu.Content>>(
  function DropdownMenuContent({ className, sideOffset = 6, align = 'end', ...props }, ref) {
    return (
      <RadixMenu.Portal>
        <RadixMenu.Content
          ref={ref}
          sideOffset={sideOffset}
          align={align}
          className={cn('z-50 min-w-52 rounded-xl border border-stone-200 bg-white p-1.5 text-sm text-ink shadow-lg', className)}
          {...props}
        />
      </RadixMenu.Portal>
    );
  },
);

export const DropdownMenuItem = forwardRef<ElementRef<typeof RadixMenu.Item>, ComponentPropsWithoutRef<typeof RadixMenu.Item>>(
  function DropdownMenuItem({ className, ...props }, ref) {
    return (
      <RadixMenu.Item
        ref={ref}
        className={cn(
          'flex cursor-pointer select-none items-center gap-2 rounded-lg px-2.5 py-2 outline-none',
          'data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
          className,
        )}
        {...props}
      />
    );
  },
);

export function DropdownMenuSeparator({ className }: { className?: string }) {
  return <RadixMenu.Separator className={cn('my-1 h-px bg-stone-200', className)} />;
}
