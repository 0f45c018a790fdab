import { createHmac } from 'node:crypto';
import type { AppContext } from '../context';
import { randomToken, safeEqual } from '../crypto/tokens';

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
  const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  const value = `${userId}.${nonce}.${signatureOf(ctx, userId, nonce)}`;
  return `${DEVICE_COOKIE}=${value}; Path=${DEVICE_COOKIE_PATH}; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict${secure}`;
}

/** The device's own name (its cookie's nonce) when the request's Cookie header holds a good device cookie for this account; else null. */
export function knownDevice(ctx: AppContext, cookieHeader: string | undefined, userId: string): string | null {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [name, value] = pair.trim().split('=', 2);
    if (name !== DEVICE_COOKIE || !value) continue;
    const [owner, nonce, signature] = value.split('.');
    if (owner === userId && nonce && signature && safeEqual(signature, signatureOf(ctx, userId, nonce))) return nonce;
  }
  return null;
}
