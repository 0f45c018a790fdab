import { useState } from 'react';
import { Alert } from '../../components/ui/Alert';
import { PageHead } from '../../seo/PageHead';
import { Spinner } from '../../components/ui/Spinner';
import { CallPanel } from './CallPanel';
import { Composer } from './Composer';
import { ConversationView } from './ConversationView';
import { DevRequestError } from './fetch-json';
import { NumberPicker } from './NumberPicker';
import { formatUsPhone } from './phone-format';
import { useConversation, useSendText } from './use-conversation';

export const PHONE_STORAGE_KEY = 'jotline.devPhone.number';

function storedPhone(): string | null {
  try {
    return localStorage.getItem(PHONE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** A developer's phone: texts the journal number through the SMS simulator and shows the replies. */
export function DevPhonePage() {
  const [phone, setPhone] = useState<string | null>(storedPhone);
  const conversation = useConversation(phone);
  const sendText = useSendText(phone);

  const choose = (next: string) => {
    setPhone(next);
    try {
      localStorage.setItem(PHONE_STORAGE_KEY, next);
    } catch {
      // Private mode: the number lasts for this visit only.
    }
  };

  const unavailable = conversation.error instanceof DevRequestError && conversation.error.status === 404;

  return (
    <main className="mx-auto min-h-dvh max-w-lg px-4 py-6 sm:py-10">
      <PageHead title="Dev phone · Jotline" robots="noindex" />
      <header className="mb-5 space-y-1">
        <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">Developer tools</p>
        <h1 className="font-serif text-3xl text-ink">Dev phone</h1>
        <p className="text-sm text-stone-600">
          A pretend handset for texting and calling the journal number. This page exists only while Jotline runs with the SMS simulator;
          nothing here reaches a real phone.
        </p>
      </header>

      <NumberPicker phone={phone} onChange={choose} />

      <section aria-labelledby="dev-phone-thread" className="mt-5 overflow-hidden rounded-3xl border border-stone-200 bg-white shadow-sm">
        <div className="flex items-center justify-between gap-3 border-b border-stone-200 px-4 py-3">
          <h2 id="dev-phone-thread" className="text-sm font-semibold text-ink">
            Jotline
            {conversation.data && <span className="ml-2 font-normal text-stone-500">{formatUsPhone(conversation.data.journalNumber)}</span>}
          </h2>
          {phone && <span className="truncate text-xs text-stone-500">as {formatUsPhone(phone)}</span>}
        </div>

        {!phone ? (
          <p className="px-4 py-10 text-center text-sm text-stone-500">Choose a number above to start texting.</p>
        ) : conversation.isPending ? (
          <div className="flex h-64 items-center justify-center text-brand-700">
            <Spinner label="Loading the conversation" />
          </div>
        ) : conversation.error && !conversation.data ? (
          <div className="p-4">
            <Alert tone="error" title={unavailable ? 'The dev phone is off' : 'Could not load the conversation'}>
              {unavailable ? 'Jotline is not running with the SMS simulator, so there is no dev phone.' : conversation.error.message}
            </Alert>
          </div>
        ) : (
          <ConversationView texts={conversation.data?.messages ?? []} />
        )}

        {conversation.error && conversation.data && (
          <p role="status" className="border-t border-amber-200 bg-amber-50 px-4 py-2 text-xs text-amber-900">
            Lost contact with the server; retrying…
          </p>
        )}

        <Composer onSend={(body) => sendText.mutateAsync(body)} sending={sendText.isPending} disabled={!phone || unavailable} />
      </section>

      <CallPanel phone={phone} disabled={unavailable} />
    </main>
  );
}
