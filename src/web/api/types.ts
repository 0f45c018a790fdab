/** Shapes the auth API answers with (DESIGN section 6). */

import type { AuthUser, Session } from '../../shared/auth-schemas';

export type { Session };
export type SessionUser = AuthUser;

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
