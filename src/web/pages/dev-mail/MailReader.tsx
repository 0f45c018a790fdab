import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { linkify } from './linkify';
import { mailDate } from './MailList';
import type { DevMail } from './use-dev-mail';

/**
 * One e-mail: its text with clickable links, or its HTML in a fully sandboxed frame (no scripts,
 * no same-origin access), never injected into this page.
 */
export function MailReader({ mail, onBack }: { mail: DevMail; onBack(): void }) {
  const [view, setView] = useState<'text' | 'html'>('text');
  const showHtml = view === 'html' && !!mail.html;
  return (
    <article aria-labelledby="dev-mail-subject" className="space-y-4 p-4 sm:p-6">
      <Button variant="ghost" size="sm" onClick={onBack} className="-ml-2 md:hidden">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to inbox
      </Button>
      <h2 id="dev-mail-subject" className="font-serif text-2xl break-words text-ink">
        {mail.subject || '(no subject)'}
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-stone-500">From</dt>
        <dd className="break-all">{mail.from}</dd>
        <dt className="text-stone-500">To</dt>
        <dd className="break-all">{mail.to}</dd>
        <dt className="text-stone-500">Date</dt>
        <dd>
          <time dateTime={mail.at}>{mailDate.format(new Date(mail.at))}</time>
        </dd>
      </dl>
      {mail.html && (
        <div role="group" aria-label="Show as" className="inline-flex rounded-lg border border-stone-300 p-0.5 text-sm">
          {(['text', 'html'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={cn('rounded-md px-3 py-1', view === v ? 'bg-brand-700 text-white' : 'text-stone-700 hover:bg-stone-100')}
            >
              {v === 'text' ? 'Text' : 'HTML'}
            </button>
          ))}
        </div>
      )}
      {showHtml ? (
        <iframe title={`HTML version of "${mail.subject}"`} sandbox="" srcDoc={mail.html!} className="h-[28rem] w-full rounded-lg border border-stone-200 bg-white" />
      ) : (
        <div className="rounded-lg border border-stone-200 bg-white p-4 font-mono text-sm leading-relaxed break-words whitespace-pre-wrap">{linkify(mail.text)}</div>
      )}
    </article>
  );
}
