import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCalendarDay } from '../../shared/validation';
import { createEntry, journalUser, type JournalTestUser } from '../test/journal';
import { parseTickArgs } from '../cli/reminders';
import { buildTestApp, type TestApp } from '../test/app';

/** Dates with the right shape that are no day at all (month 13, month 0, day 0, February 30). */
const IMPOSSIBLE = ['2026-13-01', '2026-00-10', '0000-00-00', '2026-02-30', '2026-04-31', '2027-02-29', '2026-01-00'];

describe('impossible dates, wherever a date is accepted', () => {
  let t: TestApp;
  let user: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await journalUser(t);
    await createEntry(t, user, { content: 'An ordinary day.' });
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: user.headers, payload });

  it.each(IMPOSSIBLE)('answers %s with 400 and a clear message, never 500', async (day) => {
    const message = `There is no day ${day}: dates must be real days, written YYYY-MM-DD`;
    const answers = [
      await send('POST', '/api/entries', { content: 'Written on no day at all.', entry_date: day }),
      await send('GET', `/api/entries?from=${day}`),
      await send('GET', `/api/entries?to=${day}`),
      await send('GET', `/api/export?format=txt&from=${day}`),
      await send('GET', `/api/export?format=json&to=${day}`),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toEqual({ code: 'INVALID_INPUT', message });
    }
    expect(parseTickArgs(['--at', `${day}T20:00:00Z`])).toEqual({ error: expect.stringContaining('--at must be an ISO-8601 date and time') });
  });

  it('still takes every real day, the leap day included', async () => {
    expect((await send('POST', '/api/entries', { content: 'A leap day.', entry_date: '2024-02-29' })).statusCode).toBe(201);
    expect((await send('GET', '/api/entries?from=2024-02-29&to=2024-02-29')).json().entries.map((e: { content: string }) => e.content)).toEqual(['A leap day.']);
    expect((await send('GET', '/api/export?format=txt&from=2024-02-29&to=2024-12-31')).statusCode).toBe(200);
    expect(parseTickArgs(['--at', '2028-02-29T20:00:00-05:00'])).toEqual({ at: new Date('2028-03-01T01:00:00Z') });
  });

  it('holds one rule for every calendar day, the journal’s own checks included', () => {
    for (const day of IMPOSSIBLE) expect(isCalendarDay(day), day).toBe(false);
    for (const day of ['0001-01-01', '2000-02-29', '2024-02-29', '2026-12-31', '9999-12-31']) expect(isCalendarDay(day), day).toBe(true);
    for (const day of ['1900-02-29', '2100-02-29', '2026-1-01', '2026-01-01T00:00', ' 2026-01-01', '20260101']) expect(isCalendarDay(day), day).toBe(false);
  });
});
