import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app';

describe('GET /api/dev/mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('lists the simulated outbox, newest first', async () => {
    await t.app.ctx.mail.send({ to: 'a@example.com', subject: 'First', text: 'one' });
    await t.app.ctx.mail.send({ to: 'b@example.com', subject: 'Second', text: 'two', html: '<p>two</p>' });
    // From this machine (app.inject's client is 127.0.0.1).
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/mail' });
    expect(res.statusCode).toBe(200);
    expect(res.json().messages.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    expect(res.json().messages[0]).toEqual({
      id: expect.any(String),
      to: 'b@example.com',
      from: expect.any(String),
      subject: 'Second',
      text: 'two',
      html: '<p>two</p>',
      at: expect.any(String),
    });
  });

  it('is not mounted when real mail is configured', async () => {
    const withSmtp = await buildTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      expect((await withSmtp.app.inject({ method: 'GET', url: '/api/dev/mail' })).statusCode).toBe(404);
    } finally {
      await withSmtp.close();
    }
  });
});
