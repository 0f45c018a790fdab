import nodemailer from 'nodemailer';
import type { MailMessage, Mailer } from './types';

/** Real e-mail over SMTP (smtp:// or smtps:// with credentials in the URL). */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(message: MailMessage) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    },
  };
}
