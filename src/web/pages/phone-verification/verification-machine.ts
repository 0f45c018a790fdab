import { VERIFICATION_TIMINGS } from '../../../shared/limits';
import { messages } from '../../../shared/messages';

/**
 * The phone-verification page as a pure state machine (spec 4, timings from spec 9). The hook in
 * usePhoneVerification.ts drives it with timers and API answers; everything here is synchronous.
 */
export type VerificationStatus =
  | 'INITIAL'
  | 'AWAITING_VERIFICATION'
  | 'VERIFICATION_SUCCESS'
  | 'VERIFICATION_ERROR'
  | 'VERIFICATION_TIMEOUT'
  | 'USER_VERIFIED';

export interface VerificationState {
  status: VerificationStatus;
  /** Checks started since the last reset (the attempt counter). */
  attempts: number;
  consecutiveFailures: number;
  /** Time waited since the page (or the last retry) started. */
  elapsedMs: number;
  error: string | null;
  authLink: string | null;
}

export type VerificationEvent =
  | { type: 'CHECK_STARTED' }
  | { type: 'CHECK_ANSWERED'; answer: unknown }
  | { type: 'CHECK_FAILED'; cause: 'api' | 'network' }
  | { type: 'REALTIME_VERIFIED' }
  | { type: 'TICK'; elapsedMs: number }
  | { type: 'RESET' };

export const initialVerificationState: VerificationState = {
  status: 'INITIAL',
  attempts: 0,
  consecutiveFailures: 0,
  elapsedMs: 0,
  error: null,
  authLink: null,
};

const failureMessages = {
  api: messages.verification.temporaryError,
  network: messages.verification.networkError,
  format: messages.verification.unexpectedFormat,
} as const;

export function isFinished(state: VerificationState): boolean {
  return state.status === 'VERIFICATION_SUCCESS' || state.status === 'VERIFICATION_TIMEOUT';
}

export function verificationReducer(state: VerificationState, event: VerificationEvent): VerificationState {
  if (event.type === 'RESET') return initialVerificationState;
  if (isFinished(state)) return state;

  switch (event.type) {
    case 'CHECK_STARTED':
      // While the error panel is up, retries continue behind it without hiding it.
      return {
        ...state,
        attempts: state.attempts + 1,
        status: state.status === 'VERIFICATION_ERROR' ? state.status : 'AWAITING_VERIFICATION',
      };
    case 'CHECK_ANSWERED': {
      const answer = event.answer as { verified?: unknown; auth_link?: unknown } | null;
      if (answer?.verified === true && typeof answer.auth_link === 'string' && answer.auth_link) {
        return { ...state, status: 'VERIFICATION_SUCCESS', consecutiveFailures: 0, error: null, authLink: answer.auth_link };
      }
      if (answer?.verified === false) {
        return { ...state, status: 'AWAITING_VERIFICATION', consecutiveFailures: 0, error: null };
      }
      return failed(state, 'format');
    }
    case 'CHECK_FAILED':
      return failed(state, event.cause);
    case 'REALTIME_VERIFIED':
      return { ...state, status: 'USER_VERIFIED' };
    case 'TICK':
      if (event.elapsedMs >= VERIFICATION_TIMINGS.timeoutMs) {
        return { ...state, elapsedMs: event.elapsedMs, status: 'VERIFICATION_TIMEOUT', error: messages.verification.timeout };
      }
      return { ...state, elapsedMs: event.elapsedMs };
  }
}

function failed(state: VerificationState, cause: keyof typeof failureMessages): VerificationState {
  const consecutiveFailures = state.consecutiveFailures + 1;
  if (consecutiveFailures < VERIFICATION_TIMINGS.failuresBeforeError) return { ...state, consecutiveFailures };
  return { ...state, consecutiveFailures, status: 'VERIFICATION_ERROR', error: failureMessages[cause] };
}

/** After a pending answer poll every 2 s; after failures back off 2 s per failure, capped at 15 s. */
export function nextCheckDelay(state: VerificationState): number {
  const { pollMs, backoffStepMs, backoffCapMs } = VERIFICATION_TIMINGS;
  if (state.consecutiveFailures === 0) return pollMs;
  return Math.min(backoffStepMs * state.consecutiveFailures, backoffCapMs);
}

export function showsSlowHint(state: VerificationState): boolean {
  return !isFinished(state) && state.elapsedMs >= VERIFICATION_TIMINGS.slowHintMs;
}

export function showsHelp(state: VerificationState): boolean {
  return !isFinished(state) && state.elapsedMs >= VERIFICATION_TIMINGS.helpHintMs;
}

/** 75 000 ms → '1:15'. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
