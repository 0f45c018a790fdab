import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { sendDueMessages } from '../sms/outbound';
import { type FakeTwilio, journalOf, profileOf, type SmsTestApp, textJournal, withTwilioApp } from '../test/sms';
import { accountLabel, smsTexts } from '../sms/texts';
import { apiClient, signUpBody, uniqueEmail, uniquePhone } from '../test/factories';

const MINUTE = 60_000;

// Issue 24: an attacker signed up with the victim's number and, when the victim replied YES to the
// text they expected, got the number (and the victim's next text) on the attacker's account.
describe('the phone owner decides which account gets their number', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));
  beforeEach(() => t.clock.set(new Date('2026-11-25T18:00:00.000Z')));

  /** Signs up through the API from a client address of its own; returns what the person holds. */
  async function signUp(who: 'victim' | 'attacker', phone: string, overrides: Record<string, unknown> = {}) {
    const body = signUpBody({ email: uniqueEmail(who === 'victim' ? 'alice' : 'mallory'), phoneNumber: phone.slice(2), ...overrides });
    const res = await apiClient(t).post('/api/auth/signup', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', body.email).executeTakeFirstOrThrow();
    return { ...body, token: res.body.verification_token as string, userId: user.id };
  }
  type Person = Awaited<ReturnType<typeof signUp>>;
  const codeOf = async (person: Person) =>
    (await t.ctx.db.selectFrom('profiles').select('verification_code').where('id', '=', person.userId).executeTakeFirstOrThrow()).verification_code!;
  const verification = (person: Person) => apiClient(t).post('/api/auth/verify-phone', { verification_token: person.token });
  const textsTo = async (phone: string) => {
    await sendDueMessages(t.ctx);
    return twilio.sentTo(phone).map((m) => m.body);
  };
  /** Every inbound text from the number that was attributed to an account, by account. */
  const inboundOwners = async (phone: string) =>
    (await t.ctx.db.selectFrom('sms_messages').select('user_id').where('direction', '=', 'inbound').where('from_number', '=', phone).execute()).map((r) => r.user_id);

  async function expectOwnerWins(phone: string, victim: Person, attacker: Person, oldestFirst: Person[]) {
    // The victim replies YES to the text they expect: with two sign-ups waiting, YES verifies neither.
    await textJournal(t, phone, 'YES');
    expect((await profileOf(t, victim.userId)).phone_verified).toBe(0);
    expect((await profileOf(t, attacker.userId)).phone_verified).toBe(0);
    // The reply names both accounts with the code that picks each.
    const choices = await Promise.all(oldestFirst.map(async (p) => ({ code: await codeOf(p), account: accountLabel(p.email) })));
    expect((await textsTo(phone)).at(-1)).toBe(smsTexts.chooseAccount(choices));

    // The owner picks their own account by its code.
    const { sid } = await textJournal(t, phone, await codeOf(victim));
    expect((await profileOf(t, victim.userId)).phone_verified).toBe(1);
    expect((await profileOf(t, attacker.userId)).phone_verified).toBe(0);
    expect((await textsTo(phone)).at(-1)).toBe(smsTexts.welcome());
    expect((await t.ctx.db.selectFrom('sms_messages').select('user_id').where('provider_message_id', '=', sid).executeTakeFirstOrThrow()).user_id).toBe(victim.userId);

    // The victim's next texts land in the victim's journal, never the attacker's; even the attacker's code.
    await textJournal(t, phone, 'my bank PIN is 4321');
    await textJournal(t, phone, await codeOf(attacker));
    const [entry, ...more] = await journalOf(t, victim.userId);
    expect(more).toEqual([]);
    expect(entry!.content).toContain('my bank PIN is 4321');
    expect(entry!.content).toContain(await codeOf(attacker));
    expect(await journalOf(t, attacker.userId)).toEqual([]);
    expect((await inboundOwners(phone)).filter((id) => id === attacker.userId)).toEqual([]);
    expect((await profileOf(t, attacker.userId)).phone_verified).toBe(0);

    // The victim is signed in by their page and can sign in later; the attacker's page never is.
    expect((await verification(victim)).body).toEqual({ verified: true, auth_link: expect.any(String) });
    expect((await verification(attacker)).body).toEqual({ verified: false });
    const signIn = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: victim.email, password: victim.password });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ email: victim.email, phone, phone_verified: true });
    // And the number is now taken for good.
    const again = await apiClient(t).post('/api/auth/signup', signUpBody({ phoneNumber: phone.slice(2) }));
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(messages.signUp.phoneTaken);
  }

  it('an attacker who signs up first with the victim’s number does not get it when the victim replies YES', async () => {
    const phone = uniquePhone();
    const attacker = await signUp('attacker', phone);
    t.clock.advance(MINUTE);
    const victim = await signUp('victim', phone);
    // Each text names its account, so the owner can tell the two apart.
    const texts = await textsTo(phone);
    expect(texts).toEqual([smsTexts.verification(accountLabel(attacker.email)), smsTexts.verification(accountLabel(victim.email))]);
    await expectOwnerWins(phone, victim, attacker, [attacker, victim]);
  });

  it('an attacker who signs up after the victim neither ends the victim’s sign-up nor gets the number', async () => {
    const phone = uniquePhone();
    const victim = await signUp('victim', phone);
    t.clock.advance(MINUTE);
    const attacker = await signUp('attacker', phone);
    expect((await verification(victim)).body).toEqual({ verified: false });
    await expectOwnerWins(phone, victim, attacker, [victim, attacker]);
  });

  it('the owner’s own sign-up, alone on the number, verifies with a plain YES', async () => {
    const phone = uniquePhone();
    const owner = await signUp('victim', phone);
    await textJournal(t, phone, 'Yes!');
    expect((await profileOf(t, owner.userId)).phone_verified).toBe(1);
    expect((await verification(owner)).body.verified).toBe(true);
  });

  it('a wrong code verifies nobody and asks again', async () => {
    const phone = uniquePhone();
    const victim = await signUp('victim', phone);
    const attacker = await signUp('attacker', phone);
    const codes = [await codeOf(victim), await codeOf(attacker)];
    const wrong = ['1111', '2222', '3333'].find((c) => !codes.includes(c))!;
    await textJournal(t, phone, wrong);
    expect((await profileOf(t, victim.userId)).phone_verified).toBe(0);
    expect((await profileOf(t, attacker.userId)).phone_verified).toBe(0);
    expect((await textsTo(phone)).at(-1)).toContain('2 sign-ups are waiting for this phone');
  });

  it('shows whole addresses when an attacker makes theirs look like the victim’s', async () => {
    const phone = uniquePhone();
    const tag = uniqueEmail('x').slice(2, 8);
    const victim = await signUp('victim', phone, { email: `alice${tag}e@gmail.com` });
    t.clock.advance(MINUTE);
    const attacker = await signUp('attacker', phone, { email: `a1ice${tag}e@gmail.com` });
    expect(accountLabel(victim.email)).toBe(accountLabel(attacker.email));
    await textJournal(t, phone, 'YES');
    const choices = [
      { code: await codeOf(victim), account: victim.email },
      { code: await codeOf(attacker), account: attacker.email },
    ];
    expect((await textsTo(phone)).at(-1)).toBe(smsTexts.chooseAccount(choices));
  });

  it('a sign-up with the victim’s e-mail address and another password cannot take the victim’s place', async () => {
    const phone = uniquePhone();
    const victim = await signUp('victim', phone);
    const res = await apiClient(t).post('/api/auth/signup', signUpBody({ email: victim.email, phoneNumber: phone.slice(2), password: 'Attacker99' }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(messages.signUp.alreadyRegistered);
    expect((await verification(victim)).body).toEqual({ verified: false });
    await textJournal(t, phone, 'YES');
    expect((await profileOf(t, victim.userId)).phone_verified).toBe(1);
    const signIn = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: victim.email, password: victim.password });
    expect(signIn.status).toBe(200);
  });

  it('the same person starting over (same address and password) takes the place of their own pending sign-up', async () => {
    const first = await signUp('victim', uniquePhone());
    const phone = uniquePhone();
    const again = await signUp('victim', phone, { email: first.email });
    expect(again.userId).not.toBe(first.userId);
    expect((await verification(first)).status).toBe(400);
    await textJournal(t, phone, 'YES');
    expect((await profileOf(t, again.userId)).phone_verified).toBe(1);
  });

  it('one account at most verifies a number, even if two confirmations race', async () => {
    const phone = uniquePhone();
    const victim = await signUp('victim', phone);
    const attacker = await signUp('attacker', phone);
    await Promise.all([textJournal(t, phone, await codeOf(victim)), textJournal(t, phone, await codeOf(attacker))]);
    const verified = [await profileOf(t, victim.userId), await profileOf(t, attacker.userId)].filter((p) => p.phone_verified === 1);
    expect(verified).toHaveLength(1);
  });
});
