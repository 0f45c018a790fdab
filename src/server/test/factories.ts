import { randomBytes } from 'node:crypto';
import type { Session } from '../../shared/auth-schemas';
import { presentSession } from '../auth/present';
import { hashPassword } from '../auth/passwords';
import { startSession } from '../auth/sessions';
import { createAccount } from '../auth/sign-up';
import type { TestApp } from './app';

export interface TestUser {
  id: string;
  email: string;
  /** E.164. */
  phone: string;
  password: string;
}

export interface BuildUserOptions {
  email?: string;
  phone?: string;
  /** Phone verified (default true). */
  verified?: boolean;
  /** End of the trial (default: a fresh 10-day trial from the test clock's now). */
  trialEnd?: Date;
  password?: string;
  timezone?: string;
  isAdmin?: boolean;
  /** E-mail address confirmed (default true). */
  emailVerified?: boolean;
}

/** A unique address, so tests can share one PostgreSQL database. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}@example.com`;
}

// US area codes (never Canadian or Caribbean: sign-up texts only real US numbers, shared/phone-us.ts).
const US_AREA_CODES = ['201', '202', '206', '212', '213', '305', '312', '404', '415', '503', '512', '602', '617', '646', '702', '713', '718', '801', '917', '971'];

/** A unique US number sign-up accepts: a US area code, an exchange that is no N11, 555 or 976. */
export function uniquePhone(): string {
  const digits = (n: number) => Array.from(randomBytes(n), (b) => b % 10).join('');
  const area = US_AREA_CODES[randomBytes(1)[0]! % US_AREA_CODES.length];
  let exchange: string;
  do exchange = `${2 + (randomBytes(1)[0]! % 8)}${digits(2)}`;
  while (/^(?:\d11|555|976)$/.test(exchange));
  return `+1${area}${exchange}${digits(4)}`;
}

/** A random client address, so per-IP limits of one test never touch another's. */
export function uniqueIp(): string {
  return `10.${Array.from(randomBytes(3)).join('.')}`;
}

/** An account written straight to the database (no rate limits, no verification text). */
export async function buildUser(t: TestApp, options: BuildUserOptions = {}): Promise<TestUser> {
  const email = (options.email ?? uniqueEmail()).toLowerCase();
  const phone = options.phone ?? uniquePhone();
  const password = options.password ?? 'Journal123';
  const ctx = t.app.ctx;
  const id = await createAccount(ctx.db, ctx.clock, {
    email,
    phone,
    passwordHash: await hashPassword(password),
    timezone: options.timezone ?? 'America/New_York',
    phoneVerified: options.verified ?? true,
    trialEnd: options.trialEnd,
    isAdmin: options.isAdmin,
  });
  if (options.emailVerified ?? true) await ctx.db.updateTable('users').set({ email_verified_at: ctx.clock.now().toISOString() }).where('id', '=', id).execute();
  return { id, email, phone, password };
}

/**
 * A full session for the user, as POST /api/auth/token would return it: by default one that passed
 * a second factor (as admin routes need); `{mfa: false}` for a password-only one.
 */
export async function signInSession(t: TestApp, user: Pick<TestUser, 'id'>, options: { mfa?: boolean } = {}): Promise<Session> {
  return presentSession(await startSession(t.app.ctx, t.app.ctx.db, user.id, undefined, { method: 'password', mfa: options.mfa ?? true, device: null }));
}

/** An access token for the user (send as `authorization: Bearer …`). */
export async function signIn(t: TestApp, user: Pick<TestUser, 'id'>, options: { mfa?: boolean } = {}): Promise<string> {
  return (await signInSession(t, user, options)).access_token;
}

/** The header that sends the token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface ApiAnswer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

/**
 * JSON requests through app.inject from one client address (random unless given), so per-IP
 * limits stay per test.
 */
export function apiClient(t: TestApp, ip = uniqueIp()) {
  const send = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, token?: string): Promise<ApiAnswer> => {
    const res = await t.app.inject({
      method,
      url,
      remoteAddress: ip,
      headers: token ? bearer(token) : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    let parsed: unknown;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = res.body;
    }
    return { status: res.statusCode, body: parsed, headers: res.headers };
  };
  return {
    ip,
    get: (url: string, token?: string) => send('GET', url, undefined, token),
    post: (url: string, body?: unknown, token?: string) => send('POST', url, body ?? {}, token),
    put: (url: string, body?: unknown, token?: string) => send('PUT', url, body ?? {}, token),
    patch: (url: string, body?: unknown, token?: string) => send('PATCH', url, body ?? {}, token),
    delete: (url: string, token?: string) => send('DELETE', url, undefined, token),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

/** A valid POST /api/auth/signup body with a fresh e-mail address and phone number. */
export function signUpBody(overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail(),
    password: 'Journal123',
    phoneNumber: uniquePhone().slice(2),
    timezone: 'America/New_York',
    smsConsent: true,
    ...overrides,
  };
}
