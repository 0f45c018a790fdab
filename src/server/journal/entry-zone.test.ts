import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import * as entryZones from '../db/migrations/2026-11-26-0100-entry-zones';
import { buildSmsTestApp, textJournal, type SmsTestApp } from '../test/sms';
import { apiClient, buildUser, signIn } from '../test/factories';

/** Every entry carries the IANA zone its time is shown in, and keeps it when the account moves. */
describe('each entry’s time zone', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  it('is the account’s zone as a web entry or a text is written, and stays when the account changes zone', async () => {
    t.clock.set(new Date('2026-11-18T18:00:00Z'));
    const user = await buildUser(t, { timezone: 'America/Chicago' });
    const client = apiClient(t);
    const token = await signIn(t, user);
    expect((await client.post('/api/entries', { content: 'Written in Chicago' }, token)).body).toMatchObject({ time_zone: 'America/Chicago' });
    await textJournal(t, user.phone, 'Texted from Chicago');

    expect((await client.patch('/api/profile', { timezone: 'Europe/London' }, token)).status).toBe(200);
    expect((await client.post('/api/entries', { content: 'Written in London' }, token)).body).toMatchObject({ time_zone: 'Europe/London' });
    const entries = ((await client.get('/api/entries', token)).body as { entries: JournalEntry[] }).entries;
    expect(Object.fromEntries(entries.map((e) => [e.content, e.time_zone]))).toEqual({
      'Written in Chicago': 'America/Chicago',
      'Texted from Chicago': 'America/Chicago',
      'Written in London': 'Europe/London',
    });
  });

  it('is filled in for entries written before it was kept: the account’s zone, which they showed until then', async () => {
    t.clock.set(new Date('2026-11-18T18:00:00Z'));
    const user = await buildUser(t, { timezone: 'America/Denver' });
    const other = await buildUser(t, { timezone: 'Pacific/Honolulu' });
    const token = await signIn(t, user);
    const client = apiClient(t);
    await client.post('/api/entries', { content: 'Before zones were kept' }, token);
    await client.post('/api/entries', { content: 'Someone else' }, await signIn(t, other));
    await t.ctx.db.updateTable('journal_entries').set({ time_zone: null }).where('user_id', 'in', [user.id, other.id]).execute();

    await entryZones.up(t.ctx.db);
    const zones = await t.ctx.db.selectFrom('journal_entries').select(['user_id', 'time_zone']).where('user_id', 'in', [user.id, other.id]).execute();
    expect(zones.map((z) => [z.user_id === user.id ? 'user' : 'other', z.time_zone]).sort()).toEqual([
      ['other', 'Pacific/Honolulu'],
      ['user', 'America/Denver'],
    ]);
  });
});
