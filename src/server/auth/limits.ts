import { RATE_WINDOW_MS, SIGN_IN_FAILURES_PER_WINDOW, SIGN_UPS_PER_WINDOW } from '../../shared/limits';
import type { RateLimit } from '../rate-limit';

/** How long each one-time token works. */
export const TOKEN_TTL_MINUTES = {
  // Longer than the verification page's 10-minute wait, so a late YES still signs the person in.
  phone_verification: 30,
  sign_in_link: 10,
  recovery: 60,
  // A link read days later still confirms the address.
  email_verification: 7 * 24 * 60,
} as const;

/** How long a sign-in link sent by text (LINK, "Text me a sign-in link") works. */
export const TEXTED_SIGN_IN_LINK_TTL_MINUTES = 15;

/**
 * Server-side limits (DESIGN section 8). Per-IP caps are loose: many people can share one
 * address (offices, carriers), and behind an unconfigured proxy every request shares one.
 */
export const AUTH_LIMITS = {
  signUpsPerPhone: { limit: SIGN_UPS_PER_WINDOW, windowMs: RATE_WINDOW_MS },
  signUpsPerEmail: { limit: SIGN_UPS_PER_WINDOW, windowMs: RATE_WINDOW_MS },
  signUpsPerIp: { limit: 60, windowMs: RATE_WINDOW_MS },
  // Answers that say an account exists ("Account exists", a taken phone) send no text, so nothing
  // else slows them: at most 10 an hour per client address, so probing who is registered is as
  // slow as guessing passwords.
  signUpsRevealingPerIp: { limit: 10, windowMs: 60 * 60 * 1000 },
  // Failed sign-ins are counted per account and client address, so guessing from one place stops
  // while the owner's own browser still gets in; the per-account ceiling stops guessing spread over
  // many addresses. A texted sign-in link or a password reset always gets the owner in.
  signInFailuresPerEmail: { limit: SIGN_IN_FAILURES_PER_WINDOW, windowMs: RATE_WINDOW_MS },
  signInFailuresPerAccount: { limit: 50, windowMs: RATE_WINDOW_MS },
  signInFailuresPerIp: { limit: 50, windowMs: RATE_WINDOW_MS },
  // A device that has signed in to the account before (device-cookies.ts) is counted on its own,
  // and none of the limits above apply to it.
  signInFailuresPerDevice: { limit: SIGN_IN_FAILURES_PER_WINDOW, windowMs: RATE_WINDOW_MS },
  recoveriesPerEmail: { limit: 3, windowMs: RATE_WINDOW_MS },
  recoveriesPerIp: { limit: 20, windowMs: RATE_WINDOW_MS },
  signInLinksPerPhone: { limit: 3, windowMs: RATE_WINDOW_MS },
  signInLinksPerIp: { limit: 20, windowMs: RATE_WINDOW_MS },
} satisfies Record<string, RateLimit>;

/** Where a request came from: the proxy-aware client address, and the Cookie header (a device cookie). */
export interface Client {
  ip: string;
  cookies?: string;
  /** The User-Agent header, for the session's device name ("Chrome on macOS"). */
  userAgent?: string;
}
