import { useMutation, useQuery } from '@tanstack/react-query';
import { MailCheck, Smartphone } from 'lucide-react';
import { toast } from 'sonner';
import type { AuthUser } from '../../../shared/auth-schemas';
import { messages } from '../../../shared/messages';
import { formatUsPhone } from '../../../shared/site';
import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { useSignOut } from '../auth/useSignOut';
import { useJournalNumber } from '../journal-number';

const copy = messages.accountState;

/** Asked again every minute while the phone is unverified: it shows a YES as it lands, and keeps the sign-up in use alive. */
const UNVERIFIED_POLL_MS = 60_000;

/** The signed-in user as the server has it now (GET /api/auth/user). */
export function useAccount() {
  return useQuery({
    queryKey: ['account'],
    queryFn: ({ signal }) => apiRequest<AuthUser>('GET', '/api/auth/user', { signal }),
    refetchInterval: (query) => (query.state.data && !query.state.data.phone_verified ? UNVERIFIED_POLL_MS : false),
  });
}

/** '3:45 PM': when an unverified sign-up lapses, where the reader is. */
const clockTime = (instant: string) => new Date(instant).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

/** Above the journal: "Verify your phone" until it is (texts from it are not journaled before), and a quiet "Confirm your e-mail". */
export function AccountBanners() {
  const account = useAccount();
  const user = account.data;
  if (!user) return null;
  return (
    <>
      {!user.phone_verified && <VerifyPhone user={user} />}
      {user.phone_verified && !user.email_verified && <ConfirmEmail email={user.email} />}
    </>
  );
}

/** The server's refusal (texts off after STOP, too many today) as it says it; anything else, the generic failure. */
const resendError = (error: unknown) => (error instanceof ApiError && error.status < 500 ? error.message : copy.resendFailed);

function VerifyPhone({ user }: { user: AuthUser }) {
  const number = useJournalNumber();
  const signOut = useSignOut();
  const resend = useMutation({ mutationFn: () => apiRequest('POST', '/api/auth/verify/resend', { body: { type: 'sms' } }) });
  return (
    <section aria-label={copy.verifyPhoneTitle} className="rounded-2xl border border-amber-300 bg-amber-50 px-4 py-4 text-sm text-amber-950 sm:px-5">
      <div className="flex gap-3">
        <Smartphone aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <div className="min-w-0 space-y-1.5">
          <p className="font-semibold">{copy.verifyPhoneTitle}</p>
          <p>{copy.verifyPhone(user.phone ? formatUsPhone(user.phone) : '', number.display)}</p>
          {user.sign_up_lapses_at && <p className="text-amber-900">{copy.lapses(clockTime(user.sign_up_lapses_at))}</p>}
          <div className="flex flex-wrap gap-2 pt-1">
            <a href={`sms:${number.e164}?body=YES`} className="inline-flex items-center rounded-full bg-amber-700 px-3.5 py-1.5 font-medium text-white hover:bg-amber-800">
              {copy.replyYes}
            </a>
            <Button variant="secondary" size="sm" disabled={resend.isPending || resend.isSuccess} onClick={() => resend.mutate()}>
              {resend.isPending ? copy.resending : copy.resend}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => void signOut().then(() => window.location.assign('/sign-up'))}>
              {copy.changeNumber}
            </Button>
          </div>
          {resend.isSuccess && (
            <p role="status" className="text-amber-900">
              {copy.resent}
            </p>
          )}
          {resend.isError && (
            <p role="alert" className="font-medium text-red-700">
              {resendError(resend.error)}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}

function ConfirmEmail({ email }: { email: string }) {
  const resend = useMutation({ mutationFn: () => apiRequest('POST', '/api/auth/verify/resend', { body: {} }) });
  return (
    <p className="flex items-start gap-2 px-1 text-sm text-stone-600">
      <MailCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-stone-500" />
      <span>
        {messages.emailVerification.reminder(email)}{' '}
        <button
          type="button"
          disabled={resend.isPending || resend.isSuccess}
          onClick={() =>
            resend.mutate(undefined, {
              onSuccess: () => toast.success(messages.emailVerification.sent),
              onError: () => toast.error(messages.generic.internal),
            })
          }
          className="font-medium text-brand-700 underline-offset-2 hover:underline disabled:text-stone-400 disabled:no-underline"
        >
          {resend.isSuccess ? messages.emailVerification.sent : messages.emailVerification.sendAgain}
        </button>
      </span>
    </p>
  );
}
