import { createHmac } from 'node:crypto';
import type { AppContext } from '../context';
import { randomToken, safeEqual } from '../crypto/tokens';
import { cookieValue, privateCookie } from '../http/cookies';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * has signed in to an account carries a cookie the server signed for that account, and its wrong
 * passwords are counted on their own. Only unknown devices share the account's limit, so guessing
 * from many addresses cannot lock the owner out of their own browser.
 */
export const DEVICE_COOKIE = 'jotline_device';
/** Sent with sign-ins only. */
const DEVICE_COOKIE_PATH = '/api/auth/token';
const DEVICE_COOKIE_MAX_AGE_S = 365 * 86_400;

const signatureOf = (ctx: AppContext, userId: string, nonce: string) =>
  createHmac('sha256', ctx.keys.links).update(`device-cookie:${userId}:${nonce}`).digest('base64url');

/** The Set-Cookie header for a device that has just signed in to the account. */
export function deviceCookieFor(ctx: AppContext, userId: string): string {
  const nonce = randomToken();
  const value = `${userId}.${nonce}.${signatureOf(ctx, userId, nonce)}`;
  return privateCookie(DEVICE_COOKIE, value, { path: DEVICE_COOKIE_PATH, maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_S, publicUrl: ctx.config.publicUrl });
}

/** The device's own name (its cookie's nonce) when the request's Cookie header holds a good device cookie for this account; else null. */
export function knownDevice(ctx: AppContext, cookieHeader: string | undefined, userId: string): string | null {
  const [owner, nonce, signature] = (cookieValue(cookieHeader, DEVICE_COOKIE) ?? '').split('.');
  return owner === userId && nonce && signature && safeEqual(signature, signatureOf(ctx, userId, nonce)) ? nonce : null;
}
