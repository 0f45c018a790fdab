import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { VERIFICATION_TIMINGS } from '../../../shared/limits';
import { messages } from '../../../shared/messages';
import { checkPhoneVerification, verificationEventsUrl } from '../../api/auth';
import { NetworkError } from '../../api/errors';
import {
  initialVerificationState,
  isFinished,
  nextCheckDelay,
  verificationReducer,
  type VerificationEvent,
  type VerificationState,
} from './verification-machine';

const CLOCK_TICK_MS = 1_000;

interface PhoneVerificationOptions {
  verificationToken: string;
  /** Called about 1 s after the phone is verified, with the sign-in link. */
  onVerified(authLink: string): void;
  /** Called when 10 minutes pass without verification. */
  onTimeout(): void;
}

export interface PhoneVerification {
  state: VerificationState;
  /** 'Check Again': check now instead of waiting for the next poll. */
  checkNow(): void;
  /** 'Try Again': back to INITIAL with the waiting timer cleared; checking starts over. */
  retry(): void;
}

/**
 * Drives the verification machine: the first check after 1 s, polling and back-off, the waiting
 * clock and the 10-minute timeout, and the server's USER_VERIFIED event for an immediate check.
 */
export function usePhoneVerification({ verificationToken, onVerified, onTimeout }: PhoneVerificationOptions): PhoneVerification {
  const [state, setState] = useState(initialVerificationState);
  const stateRef = useRef(state);
  const [run, setRun] = useState(0);
  const checkNowRef = useRef<() => void>(() => undefined);
  const callbacks = useRef({ onVerified, onTimeout });
  useEffect(() => {
    callbacks.current = { onVerified, onTimeout };
  });

  const send = useCallback((event: VerificationEvent) => {
    stateRef.current = verificationReducer(stateRef.current, event);
    setState(stateRef.current);
    return stateRef.current;
  }, []);

  useEffect(() => {
    let disposed = false;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let successTimer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | null = null;
    let recheckWhenAnswered = false;
    let events: EventSource | null = null;
    const startedAt = Date.now();

    const stopWaiting = () => {
      clearTimeout(pollTimer);
      clearInterval(clock);
      events?.close();
    };
    const schedule = (delayMs: number) => {
      clearTimeout(pollTimer);
      pollTimer = setTimeout(check, delayMs);
    };

    async function check() {
      if (disposed || isFinished(stateRef.current)) return;
      if (inFlight) {
        recheckWhenAnswered = true;
        return;
      }
      clearTimeout(pollTimer);
      send({ type: 'CHECK_STARTED' });
      const controller = new AbortController();
      inFlight = controller;
      let event: VerificationEvent;
      try {
        event = { type: 'CHECK_ANSWERED', answer: await checkPhoneVerification(verificationToken, controller.signal) };
      } catch (error) {
        event = { type: 'CHECK_FAILED', cause: error instanceof NetworkError ? 'network' : 'api' };
      }
      inFlight = null;
      if (disposed) return;
      const next = send(event);
      if (next.status === 'VERIFICATION_SUCCESS' && next.authLink) {
        const authLink = next.authLink;
        stopWaiting();
        toast.success(messages.verification.verified);
        successTimer = setTimeout(() => callbacks.current.onVerified(authLink), VERIFICATION_TIMINGS.redirectAfterSuccessMs);
        return;
      }
      if (isFinished(next)) return;
      const again = recheckWhenAnswered && next.consecutiveFailures === 0;
      recheckWhenAnswered = false;
      schedule(again ? 0 : nextCheckDelay(next));
    }

    const clock = setInterval(() => {
      const next = send({ type: 'TICK', elapsedMs: Date.now() - startedAt });
      if (next.status === 'VERIFICATION_TIMEOUT') {
        stopWaiting();
        inFlight?.abort();
        toast.error(messages.verification.timeoutToast);
        callbacks.current.onTimeout();
      }
    }, CLOCK_TICK_MS);

    if (typeof EventSource === 'function') {
      events = new EventSource(verificationEventsUrl(verificationToken));
      events.addEventListener('USER_VERIFIED', () => {
        if (disposed || isFinished(stateRef.current)) return;
        send({ type: 'REALTIME_VERIFIED' });
        void check();
      });
    }

    checkNowRef.current = () => void check();
    schedule(VERIFICATION_TIMINGS.firstCheckMs);

    return () => {
      disposed = true;
      stopWaiting();
      clearTimeout(successTimer);
      inFlight?.abort();
    };
  }, [verificationToken, run, send]);

  const checkNow = useCallback(() => checkNowRef.current(), []);
  const retry = useCallback(() => {
    send({ type: 'RESET' });
    setRun((n) => n + 1);
  }, [send]);

  return { state, checkNow, retry };
}
