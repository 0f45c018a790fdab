import { RATE_WINDOW_MS, SIGN_IN_FAILURES_PER_WINDOW } from '../../shared/limits';
import { messages } from '../../shared/messages';
import { securityMessages, type ConfirmPersonInput } from '../../shared/second-factor';
import type { AppContext } from '../context';
import { AppError, invalidCredentials, rateLimited } from '../errors';
import type { MailMessage } from '../providers/mail/types';
import { isLimited, rateLimitKey, recordHit, type RateLimit } from '../rate-limit';
import { recordSecurityEvent } from '../security/events';
import { BRAND } from '../sms/texts';
import type { RequestUser } from './authenticate';
import type { Client } from './limits';
import { verifyAssertion } from './passkeys/service';
import { markSessionProved, sessionProvedAt } from './mfa/session-records';
import { verifyPassword } from './passwords';
import { confirmedAddressOf, findPasswordHash } from './repo';

// A session alone is not enough for what cannot be undone: changing the vault's keys, turning the
// vault off and deleting the account ask for a proof of the person from the last five minutes
// (signing in, or the password or a passkey again), and each tells the account's address by e-mail.

export const FRESH_PROOF_MS = 5 * 60_000;
const WRONG_PASSWORDS: RateLimit = { limit: SIGN_IN_FAILURES_PER_WINDOW, windowMs: RATE_WINDOW_MS };

/** 401 PROOF_REQUIRED unless this session proved its person within FRESH_PROOF_MS. */
export async function requireFreshProof(ctx: AppContext, user: RequestUser): Promise<void> {
  const provedAt = await sessionProvedAt(ctx.db, user.id, user.sessionFamily);
  const since = new Date(ctx.clock.now().getTime() - FRESH_PROOF_MS).toISOString();
  if (!provedAt || provedAt < since) throw new AppError('PROOF_REQUIRED', securityMessages.proofRequired);
}

/** POST /api/auth/confirm: the password or a passkey of this account, again; the session's proof is now. */
export async function confirmPerson(ctx: AppContext, user: RequestUser, input: ConfirmPersonInput, client: Client): Promise<void> {
  if ('password' in input) {
    // A session is no licence to guess the password: wrong ones count like failed sign-ins.
    const key = rateLimitKey('confirm-person', user.id);
    if (await isLimited(ctx, key, WRONG_PASSWORDS)) throw rateLimited(messages.signIn.rateLimited);
    if (!(await verifyPassword(await findPasswordHash(ctx.db, user.id), input.password))) {
      await recordHit(ctx, key);
      await recordSecurityEvent(ctx, { event_type: 'confirm_failed', severity: 'medium', user_id: user.id, ip: client.ip });
      throw invalidCredentials(securityMessages.passwordWrong);
    }
  } else {
    const userId = await verifyAssertion(ctx, input.response, null, client);
    if (userId !== user.id) throw invalidCredentials(securityMessages.passkeyRefused);
  }
  await markSessionProved(ctx.db, user.id, user.sessionFamily, ctx.clock.now().toISOString());
}

/** What a change that needed a fresh proof tells the account's address. */
export function changedMail(to: string, what: string, at: Date, settingsUrl: string): MailMessage {
  const when = at.toUTCString();
  const text = [`${what} (${when}).`, '', `If this was not you, change your password and end your other sessions in Settings → Security: ${settingsUrl}`, '', `— ${BRAND}`].join('\n');
  const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
  const html = `<p>${esc(what)} (${esc(when)}).</p>\n<p>If this was not you, change your password and end your other sessions in <a href="${esc(settingsUrl)}">Settings → Security</a>.</p>\n<p>— ${BRAND}</p>`;
  return { to, subject: `${BRAND}: ${what}`, text, html };
}

/** Sends `changedMail` to the user's address if its owner confirmed it; a mail that cannot go must not undo the change. */
export async function tellOwner(ctx: AppContext, user: RequestUser, what: string): Promise<void> {
  const to = await confirmedAddressOf(ctx.db, user.id);
  if (!to) return;
  await ctx.mail.send(changedMail(to, what, ctx.clock.now(), `${ctx.config.publicUrl}/settings`)).catch(() => undefined);
}
