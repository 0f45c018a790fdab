import { ArrowLeft, CircleCheck, Clock, LifeBuoy, MessageCircleReply, RefreshCw, Smartphone } from 'lucide-react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { maskPhone } from '../../../shared/phone';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { AuthLayout } from '../../features/auth/AuthLayout';
import { formatElapsed, showsHelp, showsSlowHint, type VerificationState } from './verification-machine';

const steps = [
  { icon: Smartphone, text: 'A text from Jotline arrives on your phone in a moment.' },
  { icon: MessageCircleReply, text: 'Reply YES to confirm this number is yours.' },
  { icon: CircleCheck, text: "You're signed in here automatically. No need to refresh." },
];

export function VerificationPanel(props: {
  phone: string;
  state: VerificationState;
  onCheckAgain(): void;
  onRetry(): void;
  onBackToSignUp(): void;
}) {
  const { state } = props;
  return (
    <AuthLayout
      title={messages.verification.heading}
      description={
        <>
          We sent a text to <span className="font-medium whitespace-nowrap text-ink">{maskPhone(props.phone)}</span>.
        </>
      }
    >
      <div className="space-y-6">
        <VerificationStatus {...props} />

        <ol className="space-y-3" aria-label="What to expect">
          {steps.map(({ icon: Icon, text }, index) => (
            <li key={text} className="flex items-start gap-3 text-sm text-stone-700">
              <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <Icon aria-hidden="true" className="size-4" />
                <span className="sr-only">Step {index + 1}:</span>
              </span>
              <span className="pt-1">{text}</span>
            </li>
          ))}
        </ol>

        {showsSlowHint(state) && (
          <div className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
            <p className="font-semibold">{messages.verification.slowHint}</p>
            <p className="mt-1">Texts can take a minute to arrive. Make sure you replied YES to the message from Jotline.</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button variant="secondary" size="sm" onClick={props.onCheckAgain}>
                <RefreshCw aria-hidden="true" className="size-4" />
                {messages.verification.checkAgain}
              </Button>
              {showsHelp(state) && (
                <Button variant="ghost" size="sm" onClick={() => toast.info(messages.verification.instructionsSent)}>
                  <LifeBuoy aria-hidden="true" className="size-4" />
                  {messages.verification.needHelp}
                </Button>
              )}
            </div>
          </div>
        )}

        <div className="border-t border-stone-200 pt-4">
          <Button variant="ghost" onClick={props.onBackToSignUp} className="-ml-2">
            <ArrowLeft aria-hidden="true" className="size-4" />
            {messages.verification.backToSignUp}
          </Button>
        </div>
      </div>
    </AuthLayout>
  );
}

function VerificationStatus({ state, onRetry, onBackToSignUp }: { state: VerificationState; onRetry(): void; onBackToSignUp(): void }) {
  switch (state.status) {
    case 'VERIFICATION_SUCCESS':
      return <Alert tone="success" title={messages.verification.verified} />;
    case 'VERIFICATION_ERROR':
      return (
        <Alert tone="error" title={state.error ?? messages.verification.temporaryError}>
          <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
            {messages.verification.tryAgain}
          </Button>
        </Alert>
      );
    case 'VERIFICATION_TIMEOUT':
      return (
        <Alert tone="error" title={state.error ?? messages.verification.timeout}>
          <Button variant="secondary" size="sm" className="mt-2" onClick={onBackToSignUp}>
            {messages.verification.backToSignUpButton}
          </Button>
        </Alert>
      );
    default:
      return (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-900">
          <Spinner className="size-4 text-brand-700" label="Waiting for your reply" />
          <span className="font-medium">Waiting for your reply</span>
          <span className="ml-auto flex items-center gap-3 text-brand-800 tabular-nums">
            <span className="flex items-center gap-1">
              <Clock aria-hidden="true" className="size-3.5" />
              <span role="timer" aria-label="Time waited">
                {formatElapsed(state.elapsedMs)}
              </span>
            </span>
            <span>Attempt {state.attempts}</span>
          </span>
        </div>
      );
  }
}
