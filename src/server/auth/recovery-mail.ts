import type { MailMessage } from '../providers/mail/types';
import { BRAND } from '../sms/texts';
import { TOKEN_TTL_MINUTES } from './limits';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The password-reset e-mail: one link to the reset page, single use. */
export function recoveryMail(to: string, link: string): MailMessage {
  const minutes = TOKEN_TTL_MINUTES.recovery;
  const text = [
    'Someone asked to reset the password of your Jotline account.',
    '',
    `Set a new password: ${link}`,
    '',
    `The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
    '',
    `— ${BRAND}`,
  ].join('\n');
  const href = escapeHtml(link);
  const html = `<p>Someone asked to reset the password of your ${BRAND} account.</p>
<p><a href="${href}">Set a new password</a></p>
<p>The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>
<p>— ${BRAND}</p>`;
  return { to, subject: `Reset your ${BRAND} password`, text, html };
}

/** The e-mail sent at sign-up: one link that confirms the address belongs to the account's owner. */
export function emailVerificationMail(to: string, link: string): MailMessage {
  const days = TOKEN_TTL_MINUTES.email_verification / (24 * 60);
  const closing = `The link works once and expires in ${days} days. If you did not sign up for ${BRAND}, ignore this e-mail: no mail will come to you from this account.`;
  const text = [`Confirm this is your e-mail address for ${BRAND}, so a password reset can reach you:`, '', link, '', closing, '', `— ${BRAND}`].join('\n');
  const html = `<p>Confirm this is your e-mail address for ${BRAND}, so a password reset can reach you:</p>
<p><a href="${escapeHtml(link)}">Confirm my e-mail address</a></p>
<p>${closing}</p>
<p>— ${BRAND}</p>`;
  return { to, subject: `Confirm your ${BRAND} e-mail address`, text, html };
}
