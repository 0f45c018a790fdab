import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, signIn } from '../test/factories';
import { currentStreak } from './stats';
import { createEntry, journalUser, multipart, testImage } from '../test/journal';

describe('currentStreak', () => {
  const today = '2026-03-01';
  it.each([
    ['no entries', [], 0],
    ['only today', ['2026-03-01'], 1],
    ['only yesterday', ['2026-02-28'], 1],
    ['ended the day before yesterday', ['2026-02-27', '2026-02-26'], 0],
    ['three days up to today', ['2026-03-01', '2026-02-28', '2026-02-27'], 3],
    ['up to yesterday across a month end', ['2026-02-28', '2026-02-27', '2026-02-26', '2026-02-24'], 3],
    ['a gap ends it', ['2026-03-01', '2026-02-27'], 1],
    ['a future-dated entry is ignored', ['2026-03-09', '2026-03-01', '2026-02-28'], 2],
  ])('%s', (_name, days, streak) => {
    expect(currentStreak(days as string[], today)).toBe(streak);
  });
});

describe('GET /api/stats', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('counts the streak in the user’s timezone, distinct days, photos and words', async () => {
    t.clock.set(new Date('2026-03-02T04:00:00Z')); // still March 1st in New York
    const user = await journalUser(t, { timezone: 'America/New_York' });
    const empty = await t.app.inject({ method: 'GET', url: '/api/stats', headers: user.headers });
    expect(empty.json()).toEqual({ current_streak: 0, total_days: 0, total_photos: 0, total_words: 0 });

    await createEntry(t, user, { content: 'one two three' }); // 2026-03-01 local
    await createEntry(t, user, { content: 'four five', entry_date: '2026-03-01' });
    await createEntry(t, user, { content: 'six', entry_date: '2026-02-28' });
    await createEntry(t, user, { content: 'seven', entry_date: '2026-02-26' });
    const withPhoto = await createEntry(t, user, { content: 'eight', entry_date: '2026-02-27' });
    const form = await multipart({}, [{ name: 'a.png', bytes: await testImage('png') }, { name: 'b.png', bytes: await testImage('png') }]);
    await t.app.inject({ method: 'POST', url: `/api/entries/${withPhoto.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });

    const res = await t.app.inject({ method: 'GET', url: '/api/stats', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ current_streak: 4, total_days: 4, total_photos: 2, total_words: 8 });

    // A day later the streak still counts (it ends yesterday); two days later it is over.
    const statsLater = async (days: number) => {
      t.clock.advance(days * 24 * 3600 * 1000);
      const res = await t.app.inject({ method: 'GET', url: '/api/stats', headers: bearer(await signIn(t, user)) });
      return res.json().current_streak;
    };
    expect(await statsLater(1)).toBe(4);
    expect(await statsLater(1)).toBe(0);
  });
});
