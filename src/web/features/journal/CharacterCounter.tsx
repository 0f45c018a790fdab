import { CONTENT_WARNING_RATIO, ENTRY_CONTENT_MAX } from '../../../shared/journal-rules';
import { cn } from '../../components/ui/cn';
import { formatCount as format } from './numbers';

/** 'n / 10,000', turning orange above 90 % of the limit (spec 5). */
export function CharacterCounter({ id, length }: { id: string; length: number }) {
  const warning = length > ENTRY_CONTENT_MAX * CONTENT_WARNING_RATIO;
  return (
    <p
      id={id}
      data-warning={warning || undefined}
      className={cn('shrink-0 text-xs tabular-nums', warning ? 'font-semibold text-orange-600' : 'text-stone-500')}
    >
      {format(length)} / {format(ENTRY_CONTENT_MAX)}
    </p>
  );
}
