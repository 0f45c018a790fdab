import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, titled } from '../../shared/messages';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { hashToken } from '../crypto/tokens';
import { apiClient, buildUser, signUpBody, uniqueEmail, uniqueIp, uniquePhone } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';
import { accountLabel, smsTexts } from '../sms/texts';
import { rateLimitKey } from '../rate-limit';

const DAY = 86_400_000;

describe('POST /api/auth/signup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const db = () => t.app.ctx.db;
  const userByEmail = (email: string) => db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  /** Signs up and fails with the answer itself when it is not a 200, so a refusal says why. */
  const signUpOk = async (body: Record<string, unknown>) => {
    const res = await apiClient(t).post('/api/auth/signup', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };

  it('creates an account and answers with a verification token and the journal as the next stop', async () => {
    const tag = randomBytes(4).toString('hex');
    const body = signUpBody({ email: `  New.Person-${tag}@Example.COM ` });
    const res = await apiClient(t).post('/api/auth/signup', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ verification_token: expect.any(String), redirect_to: '/journal' });

    const user = await userByEmail(`new.person-${tag}@example.com`);
    expect(user).toBeDefined();
    expect(user!.password_hash).toMatch(/^\$argon2id\$/);
    expect(user!.is_admin).toBe(0);
  });

  it('starts the profile unverified with the consent time, a key salt and the chosen timezone', async () => {
    const body = signUpBody({ timezone: 'America/Chicago' });
    await signUpOk(body);
    const user = await userByEmail(body.email);
    const profile = await db().selectFrom('profiles').selectAll().where('id', '=', user!.id).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({
      phone_number: `+1${body.phoneNumber}`,
      phone_verified: 0,
      timezone: 'America/Chicago',
      reminder_timezone: 'America/Chicago',
      sms_consent_at: t.clock.now().toISOString(),
    });
    expect(profile.key_salt).toMatch(/^h1:/); // an HKDF key (crypto/encryption.ts)
    expect(Buffer.from(profile.key_salt.slice(3), 'base64')).toHaveLength(16);
  });

  it('starts a 10-day trial', async () => {
    const body = signUpBody();
    await signUpOk(body);
    const user = await userByEmail(body.email);
    const subscriber = await db().selectFrom('subscribers').selectAll().where('user_id', '=', user!.id).executeTakeFirstOrThrow();
    expect(subscriber).toMatchObject({ email: body.email, is_trial: 1, subscribed: 0 });
    expect(new Date(subscriber.trial_end!).getTime()).toBe(t.clock.now().getTime() + 10 * DAY);
  });

  it('stores the verification token hashed, valid for 30 minutes', async () => {
    const res = await apiClient(t).post('/api/auth/signup', signUpBody());
    const token = res.body.verification_token as string;
    const row = await db().selectFrom('one_time_tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(row.purpose).toBe('phone_verification');
    expect(new Date(row.expires_at).getTime()).toBe(t.clock.now().getTime() + 30 * 60_000);
    const raw = await db().selectFrom('one_time_tokens').select('id').where('token_hash', '=', token).executeTakeFirst();
    expect(raw).toBeUndefined();
  });

  it('queues the verification text to the phone, encrypted at rest', async () => {
    const digits = uniquePhone().slice(2);
    const body = signUpBody({ phoneNumber: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` });
    await signUpOk(body);
    const user = await userByEmail(body.email);
    const texts = await db().selectFrom('sms_messages').selectAll().where('user_id', '=', user!.id).execute();
    expect(texts).toHaveLength(1);
    const text = texts[0]!;
    expect(text).toMatchObject({ kind: 'verification', direction: 'outbound', dedupe_key: `verification:${user!.id}` });
    expect(text.to_number).toBe(`+1${body.phoneNumber.replace(/\D/g, '')}`);
    expect(text.body).toMatch(/^ENC:/);
    const plain = t.app.ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, text.body!);
    expect(plain).toBe(smsTexts.verification(accountLabel(body.email)));
    expect(plain).toMatch(/YES/);
    expect(plain).toMatch(/STOP/);
  });

  it('sets reminders to Eastern time when the timezone is not one of the offered US zones', async () => {
    const body = signUpBody({ timezone: 'Europe/Paris' });
    await signUpOk(body);
    const user = await userByEmail(body.email);
    const profile = await db().selectFrom('profiles').selectAll().where('id', '=', user!.id).executeTakeFirstOrThrow();
    expect(profile.timezone).toBe('Europe/Paris');
    expect(profile.reminder_timezone).toBe('America/New_York');
  });

  it('uses Eastern time when no timezone is sent', async () => {
    const { timezone: _omitted, ...body } = signUpBody();
    expect((await apiClient(t).post('/api/auth/signup', body)).status).toBe(200);
    const user = await userByEmail(body.email);
    const profile = await db().selectFrom('profiles').selectAll().where('id', '=', user!.id).executeTakeFirstOrThrow();
    expect(profile.timezone).toBe('America/New_York');
  });

  it('refuses a timezone that does not exist', async () => {
    const res = await apiClient(t).post('/api/auth/signup', signUpBody({ timezone: 'Mars/Olympus_Mons' }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(messages.signUp.invalidTimezone);
  });

  it('refuses a phone number that is not a 10-digit US number', async () => {
    for (const phoneNumber of ['12345', '0125550123', '44 20 7946 0958 1', '']) {
      const res = await apiClient(t).post('/api/auth/signup', signUpBody({ phoneNumber }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: 'INVALID_INPUT', message: 'Invalid phone number: Please enter a valid 10-digit US phone number' } });
    }
  });

  it('refuses +1 numbers outside the US, premium lines, N11 codes and fiction, and texts none of them', async () => {
    const refused = {
      Toronto: '416 555 1234',
      Vancouver: '604 222 1234',
      Jamaica: '876 555 1234',
      'Dominican Republic': '809 555 1234',
      'British Virgin Islands': '284 555 1234',
      'Puerto Rico': '787 555 1234',
      'premium 900': '900 555 1234',
      'premium 976 exchange': '212 976 5432',
      'N11 area code': '211 555 1234',
      'N11 exchange': '212 411 5555',
      'fiction (555-01xx)': '202 555 0123',
    };
    for (const [where, phoneNumber] of Object.entries(refused)) {
      const res = await apiClient(t).post('/api/auth/signup', signUpBody({ phoneNumber }));
      expect(res.status, where).toBe(400);
      expect(res.body, where).toEqual({ error: { code: 'INVALID_INPUT', message: 'Invalid phone number: Please enter a valid 10-digit US phone number' } });
    }
    const texted = await db().selectFrom('sms_messages').select('to_number').where('to_number', 'in', Object.values(refused).map((p) => `+1${p.replace(/\D/g, '')}`)).execute();
    expect(texted).toEqual([]);
  });

  it('accepts a phone number with a leading 1 and stores it as +1 and ten digits', async () => {
    const phone = uniquePhone();
    const body = signUpBody({ phoneNumber: `1-${phone.slice(2)}` });
    expect((await apiClient(t).post('/api/auth/signup', body)).status).toBe(200);
    const user = await userByEmail(body.email);
    const profile = await db().selectFrom('profiles').select('phone_number').where('id', '=', user!.id).executeTakeFirstOrThrow();
    expect(profile.phone_number).toBe(phone);
  });

  it('requires SMS consent', async () => {
    for (const smsConsent of [false, undefined]) {
      const res = await apiClient(t).post('/api/auth/signup', signUpBody({ smsConsent }));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('SMS consent required: You must agree to receive SMS messages to use the product');
    }
  });

  it('requires a password of 8 or more characters with upper case, lower case and a digit', async () => {
    for (const password of ['Short1', 'alllowercase1', 'ALLUPPERCASE1', 'NoDigitsHere', undefined]) {
      const res = await apiClient(t).post('/api/auth/signup', signUpBody({ password }));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(messages.signUp.weakPassword);
    }
  });

  it('refuses an e-mail address that is missing, malformed or longer than 254 characters', async () => {
    const missing = await apiClient(t).post('/api/auth/signup', signUpBody({ email: undefined }));
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(messages.signUp.emailRequired);
    for (const email of ['not-an-email', `${'a'.repeat(250)}@example.com`]) {
      const res = await apiClient(t).post('/api/auth/signup', signUpBody({ email }));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(messages.signIn.invalidEmail);
    }
  });

  it('refuses input carrying script fragments and records a high-severity security event', async () => {
    const inputs = [
      { email: '<script>alert(1)</script>@example.com' },
      { email: 'JavaScript:alert(1)@example.com' },
      { phoneNumber: '202555<iframe' },
      { timezone: 'eval(1)' },
      { email: 'x@example.com" onerror=alert(1)' },
    ];
    for (const input of inputs) {
      const ip = uniqueIp();
      const res = await apiClient(t, ip).post('/api/auth/signup', signUpBody(input));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Invalid input detected: Please try again.');
      const event = await db().selectFrom('security_events').selectAll().where('ip', '=', ip).executeTakeFirstOrThrow();
      expect(event).toMatchObject({ event_type: 'suspicious_input', severity: 'high' });
      expect(JSON.parse(event.details!)).toMatchObject({ action: 'signup' });
      expect(event.details).not.toContain('Journal123');
    }
  });

  it('allows one account per e-mail address, whatever its case', async () => {
    const first = await buildUser(t);
    const res = await apiClient(t).post('/api/auth/signup', signUpBody({ email: ` ${first.email.toUpperCase()} ` }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: { code: 'CONFLICT', message: 'User already registered' } });
  });

  it('allows one account per verified phone number, whatever its format', async () => {
    const first = await buildUser(t);
    const digits = first.phone.slice(2);
    const res = await apiClient(t).post('/api/auth/signup', signUpBody({ phoneNumber: `+1 (${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(messages.signUp.phoneTaken);
  });

  it('creates only one account when two sign-ups for the same address race', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all([
      apiClient(t).post('/api/auth/signup', signUpBody({ email })),
      apiClient(t).post('/api/auth/signup', signUpBody({ email })),
    ]);
    // The same person (the same password) starting over replaces their pending sign-up, or loses the race outright.
    expect(answers.map((a) => a.status)).toContain(200);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const users = await db().selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
  });

  it('allows 3 sign-up attempts per e-mail address in 15 minutes', async () => {
    const email = uniqueEmail('limited');
    const api = apiClient(t);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.post('/api/auth/signup', signUpBody({ email }))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const last = await api.post('/api/auth/signup', signUpBody({ email }));
    expect(last.body).toEqual({ error: { code: 'RATE_LIMITED', message: titled('Too many attempts', 'Please wait before trying again.') } });
  });

  it('allows 3 sign-up attempts per phone number in 15 minutes, and more once the window has passed', async () => {
    const phoneNumber = uniquePhone().slice(2);
    const api = apiClient(t);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.post('/api/auth/signup', signUpBody({ phoneNumber }))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    t.clock.advance(15 * 60_000 + 1);
    expect((await api.post('/api/auth/signup', signUpBody({ phoneNumber }))).status).toBe(200);
  });

  it('caps sign-ups from one client address', async () => {
    const ip = uniqueIp();
    const key = rateLimitKey('signup-ip', ip);
    const at = t.clock.now().toISOString();
    await db()
      .insertInto('rate_limit_hits')
      .values(Array.from({ length: 60 }, (_, i) => ({ id: `${key}-${i}`, key, created_at: at })))
      .execute();
    const res = await apiClient(t, ip).post('/api/auth/signup', signUpBody());
    expect(res.status).toBe(429);
    expect((await apiClient(t).post('/api/auth/signup', signUpBody())).status).toBe(200);
  });

  it('answers at most 10 probes an hour from one address that an account exists, then 429 to every sign-up from it', async () => {
    const registered = [];
    for (let i = 0; i < 20; i++) registered.push(await buildUser(t));
    const prober = apiClient(t);
    const answers = [];
    for (const user of registered) answers.push(await prober.post('/api/auth/signup', signUpBody({ email: user.email })));
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(409));
    expect(answers.slice(10).map((a) => a.status)).toEqual(Array(10).fill(429));
    expect(answers[10]!.body).toEqual({ error: { code: 'RATE_LIMITED', message: titled(messages.signUp.tooManyAttemptsTitle, messages.signUp.tooManyAttempts) } });
    // A taken phone number reveals as much, and an unknown address is refused alike: the 429 tells nothing.
    expect((await prober.post('/api/auth/signup', signUpBody({ phoneNumber: registered[0]!.phone.slice(2) }))).status).toBe(429);
    expect((await prober.post('/api/auth/signup', signUpBody())).status).toBe(429);
    // A person at another address signs up as usual, and the prober's hour passes.
    expect((await apiClient(t).post('/api/auth/signup', signUpBody({ email: registered[19]!.email }))).status).toBe(409);
    t.clock.advance(60 * 60_000 + 1);
    expect((await prober.post('/api/auth/signup', signUpBody({ email: registered[19]!.email }))).status).toBe(409);
  });

  it('counts answers revealing an account exactly under a burst from one address', async () => {
    const registered = [];
    for (let i = 0; i < 15; i++) registered.push(await buildUser(t));
    const ip = uniqueIp();
    const answers = await Promise.all(registered.map((user) => apiClient(t, ip).post('/api/auth/signup', signUpBody({ email: user.email }))));
    expect(answers.filter((a) => a.status === 409)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
  });
});
