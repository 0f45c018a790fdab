import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/Alert';
import { cn } from '../../components/ui/cn';
import { PageHead } from '../../seo/PageHead';
import { Spinner } from '../../components/ui/Spinner';
import { DevRequestError } from '../dev-phone/fetch-json';
import { MailList } from './MailList';
import { MailReader } from './MailReader';
import { useDevMail } from './use-dev-mail';

/** The e-mails Jotline would have sent, for developers running without SMTP. */
export function DevMailPage() {
  const mail = useDevMail();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('id');
  const selected = mail.data?.messages.find((m) => m.id === selectedId) ?? null;
  const select = (id: string | null) => setParams(id ? { id } : {});
  const unavailable = mail.error instanceof DevRequestError && mail.error.status === 404;

  return (
    <main className="mx-auto min-h-dvh max-w-5xl px-4 py-6 sm:py-10">
      <PageHead title="Dev mailbox · Jotline" robots="noindex" />
      <header className="mb-5 space-y-1">
        <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">Developer tools</p>
        <h1 className="font-serif text-3xl text-ink">Dev mailbox</h1>
        <p className="text-sm text-stone-600">
          The e-mails Jotline would have sent. This page exists only while Jotline runs without SMTP; nothing here leaves your machine.
        </p>
      </header>

      {mail.isPending ? (
        <div className="flex h-64 items-center justify-center text-brand-700">
          <Spinner label="Loading e-mails" />
        </div>
      ) : mail.error && !mail.data ? (
        <Alert tone="error" title={unavailable ? 'The dev mailbox is off' : 'Could not load the e-mails'}>
          {unavailable ? 'Jotline is sending real e-mail (SMTP is configured), so there is no dev mailbox.' : mail.error.message}
        </Alert>
      ) : (
        <div className="grid overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
          <nav aria-label="Inbox" className={cn('border-stone-200 md:block md:border-r', selected && 'hidden')}>
            <MailList mails={mail.data?.messages ?? []} selectedId={selectedId} onSelect={select} />
          </nav>
          <div className={cn('min-w-0', !selected && 'hidden md:block')}>
            {selected ? (
              <MailReader key={selected.id} mail={selected} onBack={() => select(null)} />
            ) : (
              <p className="px-4 py-10 text-center text-sm text-stone-500">Choose an e-mail to read it.</p>
            )}
          </div>
        </div>
      )}
      {mail.error && mail.data && (
        <p role="status" className="mt-3 text-xs text-amber-800">
          Lost contact with the server; retrying…
        </p>
      )}
    </main>
  );
}
