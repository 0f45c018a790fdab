import { BadgeCheck, MessageSquareText } from 'lucide-react';

/** '+12025550123' → '(202) 555-0123'; anything else is shown as given. */
export function formatUsPhone(e164: string): string {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return match ? `(${match[1]}) ${match[2]}-${match[3]}` : e164;
}

/** What a new journal shows before its first entry: how to write one by text. */
export function WelcomeCard({ phone, phoneVerified }: { phone: string | null; phoneVerified: boolean }) {
  return (
    <section className="overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm">
      <div className="bg-linear-to-br from-brand-700 to-brand-900 px-6 py-8 text-white sm:px-8">
        <MessageSquareText aria-hidden="true" className="size-8 text-brand-200" />
        <h1 className="mt-4 font-serif text-3xl font-semibold">Welcome to your journal</h1>
        <p className="mt-2 max-w-prose text-brand-100">
          Text your journal number to write your first entry. Everything you send on the same day becomes that day's entry, and
          photos are welcome too.
        </p>
      </div>
      {phone && (
        <div className="flex flex-col gap-1 px-6 py-5 sm:flex-row sm:items-center sm:justify-between sm:px-8">
          <p className="text-sm text-stone-600">Text your journal number from this phone</p>
          <p className="flex items-center gap-2 text-lg font-semibold text-ink tabular-nums">
            {formatUsPhone(phone)}
            {phoneVerified && (
              <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">
                <BadgeCheck aria-hidden="true" className="size-3.5" />
                Verified
              </span>
            )}
          </p>
        </div>
      )}
    </section>
  );
}
