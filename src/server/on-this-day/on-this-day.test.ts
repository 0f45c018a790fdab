import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { createEntry, journalUser, listEntries, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, signIn } from '../test/factories';

describe('On This Day: GET /api/on-this-day', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** Entries written for the given days, then the clock set to `now`; a fresh token for that instant. */
  const journalWith = async (days: string[], timezone = 'UTC', now?: string): Promise<JournalTestUser> => {
    t.clock.set(new Date('2026-01-15T12:00:00Z'));
    const user = await journalUser(t, { timezone, trialEnd: new Date('2031-01-01T00:00:00Z') });
    for (const day of days) {
      await createEntry(t, user, { content: `Written for ${day}`, entry_date: day });
      t.clock.advance(1000);
    }
    if (now) t.clock.set(new Date(now));
    return { ...user, headers: bearer(await signIn(t, user)) };
  };
  const onThisDay = async (user: JournalTestUser) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/on-this-day', headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { entries: JournalEntry[] }).entries;
  };

  it('lists entries from this month and day in earlier years, newest first, as /api/entries shows them', async () => {
    const user = await journalWith(['2019-05-09', '2024-05-09', '2025-05-09', '2025-05-10', '2026-05-09', '2025-05-08'], 'UTC', '2026-05-09T15:00:00Z');
    const entries = await onThisDay(user);
    expect(entries.map((e) => e.entry_date)).toEqual(['2025-05-09', '2024-05-09', '2019-05-09']);
    const listed = (await listEntries(t, user, '?limit=100')).entries.find((e) => e.id === entries[0]!.id)!;
    expect(entries[0]).toEqual(listed);
  });

  it('uses the user’s local date from their profile time zone', async () => {
    // 03:00 UTC on 10 May is still the evening of 9 May in Chicago.
    const user = await journalWith(['2025-05-09', '2025-05-10'], 'America/Chicago', '2026-05-10T03:00:00Z');
    expect((await onThisDay(user)).map((e) => e.entry_date)).toEqual(['2025-05-09']);
  });

  it('remembers 29 February on 28 February in common years', async () => {
    const user = await journalWith(['2024-02-29', '2026-02-28', '2025-03-01'], 'UTC', '2027-02-28T12:00:00Z');
    expect((await onThisDay(user)).map((e) => e.entry_date)).toEqual(['2026-02-28', '2024-02-29']);
    t.clock.set(new Date('2028-02-29T12:00:00Z'));
    const leap = { ...user, headers: bearer(await signIn(t, user)) };
    expect((await onThisDay(leap)).map((e) => e.entry_date)).toEqual(['2024-02-29']);
  });

  it('is empty on a day with nothing from earlier years', async () => {
    const user = await journalWith(['2025-06-01'], 'UTC', '2026-05-09T12:00:00Z');
    expect(await onThisDay(user)).toEqual([]);
  });

  it('needs sign-in and access to the journal, and shows only the user’s own entries', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/on-this-day' })).statusCode).toBe(401);
    const owner = await journalWith(['2025-05-09'], 'UTC', '2026-05-09T12:00:00Z');
    const stranger = await journalWith([], 'UTC', '2026-05-09T12:00:00Z');
    expect(await onThisDay(stranger)).toEqual([]);
    expect(await onThisDay(owner)).toHaveLength(1);
    t.clock.set(new Date('2031-05-09T12:00:00Z')); // the trial ended
    const expired = await t.app.inject({ method: 'GET', url: '/api/on-this-day', headers: bearer(await signIn(t, owner)) });
    expect(expired.statusCode).toBe(402);
  });
});
