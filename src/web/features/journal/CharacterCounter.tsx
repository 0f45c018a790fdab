import { CONTENT_WARNING_RATIO, ENTRY_CONTENT_MAX } from '../../../shared/journal-rules';
import { cn } from '../../components/ui/cn';
import { journalCopy } from './copy';
import { formatCount as format } from './numbers';

/**
 * 'n / 10,000', turning orange above 90 % of the limit (spec 5). It counts what the limit counts
 * (UTF-16 code units, as the server does), so an emoji counts as 2, and it says so once there is one.
 */
export function CharacterCounter({ id, text }: { id: string; text: string }) {
  const length = text.length;
  const warning = length > ENTRY_CONTENT_MAX * CONTENT_WARNING_RATIO;
  const countsDouble = length > [...text].length;
  return (
    <p
      id={id}
      data-warning={warning || undefined}
      className={cn('shrink-0 text-xs tabular-nums', warning ? 'font-semibold text-orange-600' : 'text-stone-500')}
    >
      {format(length)} / {format(ENTRY_CONTENT_MAX)}
      {countsDouble && <span className="font-normal text-stone-500"> · {journalCopy.emojiCountDouble}</span>}
    </p>
  );
}
