import type { AuthUser, Session } from '../../shared/auth-schemas';
import { signUpLapsesAt } from './pending-sign-ups';
import type { Account } from './repo';
import type { SessionGrant } from './sessions';

export function presentUser(account: Account): AuthUser {
  return {
    id: account.id,
    email: account.email,
    email_verified: account.email_verified_at !== null,
    phone: account.phone_number,
    phone_verified: account.phone_verified === 1,
    sign_up_lapses_at: account.phone_verified === 0 ? signUpLapsesAt(account) : null,
    is_admin: account.is_admin === 1,
    created_at: account.created_at,
  };
}

export function presentSession(grant: SessionGrant): Session {
  return {
    access_token: grant.accessToken,
    token_type: 'bearer',
    expires_in: grant.expiresAt - grant.issuedAt,
    expires_at: grant.expiresAt,
    refresh_token: grant.refreshToken,
    user: presentUser(grant.account),
  };
}
