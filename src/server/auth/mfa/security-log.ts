import { SECURITY_LOG_DAYS, type SecurityEventKind, type SecurityLogEvent, type SignInMethod } from '../../../shared/second-factor';
import type { AppContext } from '../../context';
import type { MailMessage } from '../../providers/mail/types';
import { BRAND } from '../../sms/texts';

/** Stored event types shown in the user's security log, and the kind each is shown as. */
const KIND_OF: Record<string, SecurityEventKind> = {
  sign_in: 'sign_in',
  login_failure: 'sign_in_failed',
  sign_in_failed: 'sign_in_failed',
  passkey_refused: 'sign_in_failed',
  password_changed: 'password_changed',
  passkey_added: 'passkey_added',
  passkey_removed: 'passkey_removed',
  mfa_on: 'mfa_on',
  mfa_off: 'mfa_off',
  session_ended: 'session_ended',
  vault_on: 'vault_on',
  vault_off: 'vault_off',
  export: 'export',
};

const LOG_LIMIT = 500;
const LOG_METHODS: SignInMethod[] = ['password', 'link', 'passkey', 'mfa'];

function parseDetails(details: string | null): Record<string, unknown> {
  if (!details) return {};
  try {
    const value: unknown = JSON.parse(details);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The user's own security log: the last 90 days, newest first. */
export async function securityLog(ctx: AppContext, userId: string): Promise<SecurityLogEvent[]> {
  const since = new Date(ctx.clock.now().getTime() - SECURITY_LOG_DAYS * 86_400_000).toISOString();
  const rows = await ctx.db
    .selectFrom('security_events')
    .select(['event_type', 'details', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .where('event_type', 'in', Object.keys(KIND_OF))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LOG_LIMIT)
    .execute();
  return rows.map((row) => {
    const details = parseDetails(row.details);
    const method = LOG_METHODS.find((m) => m === details.method);
    const device = typeof details.device === 'string' ? details.device : null;
    const kind = KIND_OF[row.event_type]!;
    return { at: row.created_at, kind, ...(kind === 'sign_in' && method ? { method } : {}), device };
  });
}

/** True when the user has signed in before, but never from this device. */
export async function isNewDevice(ctx: AppContext, userId: string, device: string | null): Promise<boolean> {
  const earlier = await ctx.db
    .selectFrom('security_events')
    .select('details')
    .where('user_id', '=', userId)
    .where('event_type', '=', 'sign_in')
    .orderBy('created_at', 'desc')
    .limit(LOG_LIMIT)
    .execute();
  if (earlier.length === 0) return false;
  return !earlier.some((row) => parseDetails(row.details).device === device);
}

/** The e-mail a sign-in from a new device sends (never a text: a text may show on a lock screen). */
export function newDeviceMail(to: string, device: string | null, at: Date, settingsUrl: string): MailMessage {
  const what = device ?? 'an unknown device';
  const when = at.toUTCString();
  const text = [
    `Your ${BRAND} account was just signed in to from ${what} (${when}).`,
    '',
    `If this was you, there is nothing to do. If not, change your password and end that session in Settings → Security: ${settingsUrl}`,
    '',
    `— ${BRAND}`,
  ].join('\n');
  const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
  const html = `<p>Your ${BRAND} account was just signed in to from ${esc(what)} (${esc(when)}).</p>
<p>If this was you, there is nothing to do. If not, change your password and end that session in <a href="${esc(settingsUrl)}">Settings → Security</a>.</p>
<p>— ${BRAND}</p>`;
  return { to, subject: `New sign-in to your ${BRAND} account`, text, html };
}
