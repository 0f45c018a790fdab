import { ContactRound, MessageSquareText } from 'lucide-react';
import { messages } from '../../../shared/messages';
import { buttonClasses } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { saveJournalNumberContact } from './save-contact';
import { useJournalNumber } from './useJournalNumber';

const copy = messages.journalNumber;

const onBrand = {
  text: 'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-white px-4 text-sm font-semibold text-brand-900 transition-colors hover:bg-brand-50',
  save: 'inline-flex h-10 items-center justify-center gap-2 rounded-lg border border-white/40 px-4 text-sm font-medium text-white transition-colors hover:bg-white/10',
};

/**
 * The journal number with its two actions: text it (an sms: link that opens the messaging app) and
 * save it to contacts (a .vcf download). `tone="brand"` sits on the brand colour.
 */
export function JournalNumberLinks({ tone = 'paper', className }: { tone?: 'paper' | 'brand'; className?: string }) {
  const number = useJournalNumber();
  const brand = tone === 'brand';
  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)}>
      <a href={number.smsHref} className={cn(brand ? onBrand.text : buttonClasses('primary', 'md'), 'whitespace-nowrap tabular-nums')}>
        <MessageSquareText aria-hidden="true" className="size-4" />
        {copy.textIt(number.display)}
      </a>
      <button
        type="button"
        onClick={() => saveJournalNumberContact(number.e164)}
        className={cn(brand ? onBrand.save : buttonClasses('secondary', 'md'), 'whitespace-nowrap')}
      >
        <ContactRound aria-hidden="true" className="size-4" />
        {copy.saveContact}
      </button>
    </div>
  );
}
