import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { sendDueMessages } from '../sms/outbound';
import { PUBLIC_URL, textJournal, type FakeTwilio, type SmsTestApp, withTwilioApp } from '../test/sms';
import { apiClient, buildUser, uniqueIp, uniquePhone } from '../test/factories';
import { AUTH_LIMITS } from './limits';

const NOW = new Date('2026-11-23T15:00:00Z');
const national = (e164: string) => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;

describe('sign in by text: POST /api/auth/link', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));
  beforeEach(() => t.clock.set(NOW));

  const askForLink = (phoneNumber: unknown, ip = uniqueIp()) => apiClient(t, ip).post('/api/auth/link', { phoneNumber });
  async function textsTo(phone: string): Promise<string[]> {
    await sendDueMessages(t.ctx);
    return twilio.sentTo(phone).map((m) => m.body);
  }
  const tokenIn = (text: string) => new URL(/(http\S+)/.exec(text)![1]!).searchParams.get('token')!;
  const signInWith = (token: string) => apiClient(t).post('/api/auth/token', { grant_type: 'link', token });

  it('answers the same for an unknown, an unverified and a verified number, and texts only the verified one', async () => {
    const verified = await buildUser(t);
    const unverified = await buildUser(t, { verified: false });
    const unknown = uniquePhone();
    const answers = [await askForLink(national(verified.phone)), await askForLink(unverified.phone), await askForLink(unknown)];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({});
    }
    const [text, ...more] = await textsTo(verified.phone);
    expect(more).toEqual([]);
    expect(text).toBe(messages.textCommands.link(`${PUBLIC_URL}/auth/callback?token=${tokenIn(text!)}`));
    expect(await textsTo(unverified.phone)).toEqual([]);
    expect(await textsTo(unknown)).toEqual([]);
  });

  it('signs in with the texted link once, as that user', async () => {
    const user = await buildUser(t);
    await askForLink(user.phone);
    const [text] = await textsTo(user.phone);
    const first = await signInWith(tokenIn(text!));
    expect(first.status).toBe(200);
    expect((first.body as { user: { id: string } }).user.id).toBe(user.id);
    const second = await signInWith(tokenIn(text!));
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ error: { code: 'INVALID_TOKEN', message: messages.auth.invalidLink } });
  });

  it('keeps a link working for 15 minutes and no longer', async () => {
    const user = await buildUser(t);
    await askForLink(user.phone);
    await askForLink(user.phone);
    const [early, late] = (await textsTo(user.phone)).map(tokenIn);
    t.clock.set(new Date(NOW.getTime() + 15 * 60_000 - 1));
    expect((await signInWith(early!)).status).toBe(200);
    t.clock.set(new Date(NOW.getTime() + 15 * 60_000));
    const expired = await signInWith(late!);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: { message: messages.auth.invalidLink } });
  });

  it('refuses a number that is not a US phone with a clear message', async () => {
    for (const phoneNumber of ['12345', 'not a phone', '', 42]) {
      const answer = await askForLink(phoneNumber);
      expect(answer.status, String(phoneNumber)).toBe(400);
      expect((answer.body as { error: { message: string } }).error.message).toContain(messages.signUp.invalidPhone);
    }
  });

  it('texts one number at most 3 links in 15 minutes under a parallel burst, answering every ask the same', async () => {
    const user = await buildUser(t);
    const answers = await Promise.all(Array.from({ length: 12 }, () => askForLink(user.phone)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body)))).toEqual(new Set(['{}']));
    expect(await textsTo(user.phone)).toHaveLength(AUTH_LIMITS.signInLinksPerPhone.limit);
    t.clock.set(new Date(NOW.getTime() + 15 * 60_000 + 1));
    await askForLink(user.phone);
    expect(await textsTo(user.phone)).toHaveLength(AUTH_LIMITS.signInLinksPerPhone.limit + 1);
  });

  it('lets one address ask exactly 20 times in 15 minutes under a parallel burst, then answers 429', async () => {
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 30 }, () => askForLink(uniquePhone(), ip)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(AUTH_LIMITS.signInLinksPerIp.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - AUTH_LIMITS.signInLinksPerIp.limit);
    expect(answers.find((a) => a.status === 429)!.body).toEqual({ error: { code: 'RATE_LIMITED', message: messages.signInByText.rateLimited } });
  });

  it('sends nothing to a number that texted STOP', async () => {
    const user = await buildUser(t);
    await textJournal(t, user.phone, 'STOP');
    const before = (await textsTo(user.phone)).length;
    expect((await askForLink(user.phone)).body).toEqual({});
    expect(await textsTo(user.phone)).toHaveLength(before);
  });
});
