import { cn } from '../../components/ui/cn';
import type { DevMail } from './use-dev-mail';

export const mailDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The outbox, newest first; each row opens the message. */
export function MailList({ mails, selectedId, onSelect }: { mails: DevMail[]; selectedId: string | null; onSelect(id: string): void }) {
  if (mails.length === 0) {
    return <p className="px-4 py-10 text-center text-sm text-stone-500">No e-mails yet. Sign up or ask for a password reset, and they land here.</p>;
  }
  return (
    <ul className="divide-y divide-stone-200" aria-label="E-mails, newest first">
      {mails.map((mail) => {
        const selected = mail.id === selectedId;
        return (
          <li key={mail.id}>
            <button
              type="button"
              onClick={() => onSelect(mail.id)}
              aria-current={selected ? 'true' : undefined}
              className={cn('block w-full px-4 py-3 text-left transition-colors hover:bg-stone-50', selected && 'bg-brand-50 hover:bg-brand-50')}
            >
              <span className="block truncate text-sm font-semibold text-ink">{mail.subject || '(no subject)'}</span>
              <span className="block truncate text-xs text-stone-600">To {mail.to}</span>
              <time dateTime={mail.at} className="block text-xs text-stone-500">
                {mailDate.format(new Date(mail.at))}
              </time>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
