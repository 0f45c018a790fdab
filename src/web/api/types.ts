/** Shapes the auth API answers with (DESIGN section 6). */

export interface SessionUser {
  id: string;
  email: string;
  /** E.164, e.g. +12025550123. */
  phone: string | null;
  phone_verified: boolean;
  is_admin: boolean;
  created_at: string;
}

export interface Session {
  access_token: string;
  token_type: string;
  expires_in: number;
  /** Unix seconds. */
  expires_at: number;
  refresh_token: string;
  user: SessionUser;
}

export interface SignUpInput {
  email: string;
  password: string;
  /** +1 and ten digits. */
  phoneNumber: string;
  timezone: string;
  smsConsent: boolean;
}

export interface SignUpResult {
  verification_token: string;
  redirect_to: string;
}

export type SignOutScope = 'local' | 'global';

export function isSession(value: unknown): value is Session {
  const s = value as Partial<Session> | null;
  return (
    !!s &&
    typeof s.access_token === 'string' &&
    typeof s.refresh_token === 'string' &&
    typeof s.expires_at === 'number' &&
    !!s.user &&
    typeof s.user.id === 'string'
  );
}
