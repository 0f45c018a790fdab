/**
 * What a password-reset link carries (spec 2): token_hash and type=recovery for the one-time-code
 * check, or an access_token directly, or error/error_description. Values may sit in the query or
 * in the #fragment.
 */
type ResetLink =
  | { kind: 'tokenHash'; tokenHash: string }
  | { kind: 'accessToken'; accessToken: string }
  | { kind: 'invalid' };

export function readResetLink(search: string, hash: string): ResetLink {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const get = (name: string) => query.get(name) ?? fragment.get(name);

  if (get('error') || get('error_description')) return { kind: 'invalid' };
  const type = get('type');
  if (type !== null && type !== 'recovery') return { kind: 'invalid' };
  const tokenHash = get('token_hash');
  if (tokenHash) return { kind: 'tokenHash', tokenHash };
  const accessToken = get('access_token');
  if (accessToken && type === 'recovery') return { kind: 'accessToken', accessToken };
  return { kind: 'invalid' };
}
