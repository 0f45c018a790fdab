import { describe, expect, it } from 'vitest';
import { VERIFICATION_TIMINGS } from '../../../shared/limits';
import { messages } from '../../../shared/messages';
import {
  formatElapsed,
  initialVerificationState,
  nextCheckDelay,
  showsHelp,
  showsSlowHint,
  verificationReducer,
  type VerificationEvent,
  type VerificationState,
} from './verification-machine';

const run = (...events: VerificationEvent[]): VerificationState => events.reduce(verificationReducer, initialVerificationState);
const started: VerificationEvent = { type: 'CHECK_STARTED' };
const apiFailure: VerificationEvent = { type: 'CHECK_FAILED', cause: 'api' };

describe('verification machine', () => {
  it('starts INITIAL; each check awaits and counts an attempt', () => {
    expect(initialVerificationState.status).toBe('INITIAL');
    const state = run(started, { type: 'CHECK_ANSWERED', answer: { verified: false } }, started);
    expect(state).toMatchObject({ status: 'AWAITING_VERIFICATION', attempts: 2 });
  });

  it('succeeds only with verified true and an auth link', () => {
    const state = run(started, { type: 'CHECK_ANSWERED', answer: { verified: true, auth_link: 'http://x/auth/callback?token=t' } });
    expect(state).toMatchObject({ status: 'VERIFICATION_SUCCESS', authLink: 'http://x/auth/callback?token=t' });
    // Finished: nothing moves it but a reset.
    expect(verificationReducer(state, { type: 'TICK', elapsedMs: VERIFICATION_TIMINGS.timeoutMs })).toBe(state);
  });

  it('backs off 2 s per consecutive failure, capped at 15 s', () => {
    const delays = [0, 1, 2, 3, 7, 8, 20].map((failures) => nextCheckDelay({ ...initialVerificationState, consecutiveFailures: failures }));
    expect(delays).toEqual([2_000, 2_000, 4_000, 6_000, 14_000, 15_000, 15_000]);
  });

  it('shows an error after 3 consecutive failures, and a good answer clears it', () => {
    expect(run(started, apiFailure, started, apiFailure).status).toBe('AWAITING_VERIFICATION');
    const failing = run(started, apiFailure, started, apiFailure, started, apiFailure);
    expect(failing).toMatchObject({ status: 'VERIFICATION_ERROR', error: messages.verification.temporaryError });
    expect(verificationReducer(failing, started).status).toBe('VERIFICATION_ERROR');
    const recovered = run(started, apiFailure, started, apiFailure, started, apiFailure, started, { type: 'CHECK_ANSWERED', answer: { verified: false } });
    expect(recovered).toMatchObject({ status: 'AWAITING_VERIFICATION', error: null, consecutiveFailures: 0 });
  });

  it.each([
    ['network', { type: 'CHECK_FAILED', cause: 'network' } as VerificationEvent, messages.verification.networkError],
    ['odd answers', { type: 'CHECK_ANSWERED', answer: { ok: 1 } } as VerificationEvent, messages.verification.unexpectedFormat],
  ])('names %s failures', (_case, failure, message) => {
    expect(run(failure, failure, failure).error).toBe(message);
  });

  it('times out after 10 minutes and resets to INITIAL', () => {
    const waiting = run(started, { type: 'TICK', elapsedMs: VERIFICATION_TIMINGS.timeoutMs - 1 });
    expect(waiting.status).toBe('AWAITING_VERIFICATION');
    const timedOut = verificationReducer(waiting, { type: 'TICK', elapsedMs: VERIFICATION_TIMINGS.timeoutMs });
    expect(timedOut).toMatchObject({ status: 'VERIFICATION_TIMEOUT', error: messages.verification.timeout });
    expect(verificationReducer(timedOut, { type: 'RESET' })).toEqual(initialVerificationState);
  });

  it('moves to USER_VERIFIED on the realtime event', () => {
    expect(run(started, { type: 'REALTIME_VERIFIED' }).status).toBe('USER_VERIFIED');
  });

  it('shows the hints at 30 s and 120 s', () => {
    const at = (ms: number) => ({ ...initialVerificationState, elapsedMs: ms });
    expect([showsSlowHint(at(29_999)), showsSlowHint(at(30_000))]).toEqual([false, true]);
    expect([showsHelp(at(119_999)), showsHelp(at(120_000))]).toEqual([false, true]);
  });

  it('formats the waiting time as m:ss', () => {
    expect([formatElapsed(0), formatElapsed(9_999), formatElapsed(75_000), formatElapsed(600_000)]).toEqual(['0:00', '0:09', '1:15', '10:00']);
  });
});
