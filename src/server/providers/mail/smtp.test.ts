import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from './smtp';

// A local SMTP server speaking the real protocol stands in for the mail provider.
describe('the SMTP mailer', () => {
  const received: { from: string; to: string[]; data: string; user?: string }[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 's3cret') return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers a message with the configured sender, authenticating with the URL credentials', async () => {
    const mailer = createSmtpMailer(`smtp://mailer:s3cret@127.0.0.1:${port}`, 'Jotline <hello@jotline.test>');
    await mailer.send({ to: 'ada@example.com', subject: 'Reset your Jotline password', text: 'Open this link', html: '<p>Open this link</p>' });

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.user).toBe('mailer');
    expect(mail!.from).toBe('hello@jotline.test');
    expect(mail!.to).toEqual(['ada@example.com']);
    expect(mail!.data).toContain('Subject: Reset your Jotline password');
    expect(mail!.data).toContain('Open this link');
  });

  it('fails loudly when the server refuses the credentials', async () => {
    const mailer = createSmtpMailer(`smtp://mailer:wrong@127.0.0.1:${port}`, 'Jotline <hello@jotline.test>');
    await expect(mailer.send({ to: 'ada@example.com', subject: 'Hi', text: 'Hi' })).rejects.toThrow(/Invalid username or password|auth/i);
  });
});
