import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import * as oneTimeZone from '../db/migrations/2026-11-25-0900-one-time-zone';
import { runReminderPass } from '../reminders/service';
import { buildSmsTestApp, outboundTo, profileOf, textJournal, type SmsTestApp } from '../test/sms';
import { apiClient, buildUser, signIn, type TestUser } from '../test/factories';

/** Issue 27 §3: an account has one time zone, for entry dates, times, exports, text replies and reminders. */
describe('the account’s one time zone', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  const at = async (instant: string) => t.clock.set(new Date(instant));
  const api = async (user: TestUser) => {
    const token = await signIn(t, user);
    const client = apiClient(t);
    return {
      get: (url: string) => client.get(url, token),
      patch: (body: unknown) => client.patch('/api/profile', body, token),
      write: (content: string) => client.post('/api/entries', { content }, token),
    };
  };
  const textsOf = async (user: TestUser, kind: string) =>
    (await outboundTo(t, user.phone)).filter((m) => m.kind === kind).map((m) => ({ key: m.dedupe_key, body: t.ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, m.body ?? '') }));

  it('set in Settings, dates entries, exports, PAUSE replies and reminders in that zone', async () => {
    // Signed up in a browser set to UTC.
    await at('2026-11-18T12:00:00Z');
    const user = await buildUser(t, { timezone: 'UTC' });
    const changed = await (await api(user)).patch({ timezone: 'America/Los_Angeles' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ timezone: 'America/Los_Angeles', reminder_timezone: 'America/Los_Angeles' });

    // 20:00 in New York and in UTC pass without a reminder; 20:00 in Los Angeles brings it.
    await runReminderPass(t.ctx, new Date('2026-11-18T20:00:00Z'));
    await runReminderPass(t.ctx, new Date('2026-11-19T01:00:00Z'));
    expect(await textsOf(user, 'reminder')).toEqual([]);
    await runReminderPass(t.ctx, new Date('2026-11-19T04:00:00Z'));
    expect((await textsOf(user, 'reminder')).map((m) => m.key)).toEqual([`reminder:${user.id}:2026-11-18`]);

    // 21:30 on the 18th in Los Angeles is already the 19th in UTC.
    await at('2026-11-19T05:30:00Z');
    const client = await api(user);
    expect((await client.write('Late walk')).body).toMatchObject({ entry_date: '2026-11-18' });
    const exported = await client.get('/api/export?format=txt');
    expect(exported.body).toContain('Times in America/Los_Angeles');
    expect(exported.body).toContain('9:30 PM');

    await textJournal(t, user.phone, 'PAUSE 1');
    const [pauseReply] = await textsOf(user, 'command_reply');
    expect(pauseReply?.body).toMatch(/until Thu, Nov 19, 9:30 PM PST/);
  });

  it('set as reminder_timezone (what older clients send), moves entry dates too', async () => {
    await at('2026-11-18T12:00:00Z');
    const user = await buildUser(t, { timezone: 'UTC' });
    expect((await (await api(user)).patch({ reminder_timezone: 'America/Chicago' })).body).toMatchObject({ timezone: 'America/Chicago' });
    // 23:30 on the 18th in Chicago.
    await at('2026-11-19T05:30:00Z');
    expect((await (await api(user)).write('Before bed')).body).toMatchObject({ entry_date: '2026-11-18' });
  });

  it('is recomputed for existing accounts: a zone chosen in Settings or beside UTC wins, and stale due times go', async () => {
    await at('2026-11-18T12:00:00Z');
    const cases = [
      { timezone: 'UTC', reminder_timezone: 'America/New_York', becomes: 'America/New_York' },
      { timezone: 'Etc/UTC', reminder_timezone: 'Pacific/Honolulu', becomes: 'Pacific/Honolulu' },
      { timezone: 'America/Chicago', reminder_timezone: 'America/Los_Angeles', becomes: 'America/Los_Angeles' },
      { timezone: 'America/Chicago', reminder_timezone: 'America/Chicago', becomes: 'America/Chicago' },
      { timezone: 'America/Detroit', reminder_timezone: 'America/New_York', becomes: 'America/Detroit' },
      { timezone: 'Europe/London', reminder_timezone: 'America/New_York', becomes: 'Europe/London' },
    ];
    const due = '2026-11-19T01:00:00.000Z';
    const users = [];
    for (const c of cases) {
      const user = await buildUser(t, { timezone: c.timezone });
      await t.ctx.db
        .updateTable('profiles')
        .set({ timezone: c.timezone, reminder_timezone: c.reminder_timezone, next_reminder_at: due, next_recap_at: due })
        .where('id', '=', user.id)
        .execute();
      users.push(user);
    }
    await oneTimeZone.up(t.ctx.db);
    for (const [i, c] of cases.entries()) {
      const row = await profileOf(t, users[i]!.id);
      expect({ timezone: row.timezone, reminder_timezone: row.reminder_timezone }, JSON.stringify(c)).toEqual({ timezone: c.becomes, reminder_timezone: c.becomes });
      // Due times computed in the old reminder zone are kept only where that zone is still the one.
      const kept = c.becomes === c.reminder_timezone;
      expect(row.next_reminder_at, JSON.stringify(c)).toBe(kept ? due : null);
    }
    // Run twice (a restart mid-way), it changes nothing more.
    await oneTimeZone.up(t.ctx.db);
    const again = await t.ctx.db.selectFrom('profiles').select(sql<number>`count(*)`.as('n')).where(sql<boolean>`timezone <> reminder_timezone`).executeTakeFirstOrThrow();
    expect(Number(again.n)).toBe(0);
  });
});
