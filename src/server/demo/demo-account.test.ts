import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry, JournalStats } from '../../shared/journal';
import { addDays, localDate } from '../journal/dates';
import { buildTestApp, type TestApp } from '../test/app';
import { apiClient } from '../test/factories';
import { createDemoAccount, DEMO_EMAIL, type DemoAccount } from './demo-account';

describe('the demo account', () => {
  let t: TestApp;
  let demo: DemoAccount;
  let token: string;
  let entries: JournalEntry[];
  const api = () => apiClient(t);

  beforeAll(async () => {
    t = await buildTestApp();
    // A fixed day: plan.test.ts shows the plan keeps these promises on every day.
    t.clock.set(new Date('2026-11-23T15:00:00Z'));
    demo = await createDemoAccount(t.app.ctx);
    const session = await api().post('/api/auth/token', { grant_type: 'password', email: demo.email, password: demo.password });
    expect(session.status).toBe(200);
    token = session.body.access_token;
    entries = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await api().get(`/api/entries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
      expect(page.status).toBe(200);
      entries.push(...(page.body.entries as JournalEntry[]));
      cursor = page.body.nextCursor;
    }
  }, 120_000);
  afterAll(() => t.close());

  it('signs in with the printed e-mail and password, on a verified phone and a running trial', async () => {
    expect(demo).toMatchObject({ email: DEMO_EMAIL, signInUrl: 'http://jotline.test/sign-in' });
    expect(demo.phone).toMatch(/^\+155555501\d\d$/);
    const user = await api().get('/api/auth/user', token);
    expect(user.status).toBe(200);
    const profile = await api().get('/api/profile', token);
    expect(profile.body).toMatchObject({ phone_number: demo.phone, phone_verified: true });
    const access = await api().get('/api/subscription', token);
    expect(access.body).toMatchObject({ is_trial: true });
    expect(Date.parse(access.body.trial_end)).toBeGreaterThan(t.clock.now().getTime());
  });

  it('holds a year of entries ending today, with a few days missed', async () => {
    const today = localDate(t.clock.now(), 'America/New_York');
    const days = new Set(entries.map((e) => e.entry_date));
    expect(days.has(today)).toBe(true);
    expect(days.has(addDays(today, -364))).toBe(true);
    expect(new Set(entries.map((e) => e.entry_date.slice(0, 7))).size).toBeGreaterThanOrEqual(12);
    expect(entries.length).toBe(demo.entries);
    expect(entries.length).toBeGreaterThan(300);
    expect(entries.length).toBeLessThan(365); // some days have no entry
    const stats: JournalStats = (await api().get('/api/stats', token)).body;
    expect(stats.current_streak).toBeGreaterThanOrEqual(7);
    expect(stats.total_days).toBe(days.size);
  });

  it('mixes web and texted entries, with titles, tags and believable lengths', () => {
    const sms = entries.filter((e) => e.source === 'sms');
    const web = entries.filter((e) => e.source === 'web');
    expect(sms.length).toBeGreaterThan(50);
    expect(web.length).toBeGreaterThan(150);
    expect(sms.some((e) => e.content.includes('\n\n'))).toBe(true); // several texts on one day
    expect(web.filter((e) => e.title).length).toBeGreaterThan(40);
    expect(new Set(entries.flatMap((e) => e.tags)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(entries.map((e) => e.content)).size).toBeGreaterThan(entries.length * 0.8);
    const words = web.map((e) => e.word_count);
    expect(Math.min(...words)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...words)).toBeGreaterThan(100);
  });

  it('has real photos, through the photo pipeline: metadata stripped, thumbnails made', async () => {
    const withPhotos = entries.filter((e) => e.photos.length > 0);
    expect(withPhotos.length).toBeGreaterThan(15);
    expect(withPhotos.reduce((n, e) => n + e.photos.length, 0)).toBe(demo.photos);
    const photo = withPhotos[0]!.photos[0]!;
    expect(photo.mime_type).toBe('image/jpeg');
    const full = await t.app.inject({ method: 'GET', url: photo.url });
    expect(full.statusCode).toBe(200);
    expect(full.rawPayload.includes('Demo Camera')).toBe(false);
    const thumb = await t.app.inject({ method: 'GET', url: photo.thumbnail_url });
    expect(thumb.headers['content-type']).toBe('image/webp');
  });

  it('keeps its text encrypted at rest', async () => {
    const rows = await t.app.ctx.db.selectFrom('journal_entries').select(['content', 'title']).where('user_id', '=', demo.userId).execute();
    expect(rows.every((r) => r.content.startsWith('ENC:') && (r.title === null || r.title.startsWith('ENC:')))).toBe(true);
  });

  it('is recreated from scratch when run again', async () => {
    const before = await t.app.ctx.db.selectFrom('journal_photos').select('file_path').where('user_id', '=', demo.userId).execute();
    const again = await createDemoAccount(t.app.ctx);
    expect(again.userId).not.toBe(demo.userId);
    expect(again.entries).toBe(demo.entries);
    expect(await t.app.ctx.db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).execute()).toEqual([{ id: again.userId }]);
    expect(before.some((p) => existsSync(join(t.app.ctx.config.storageUrl, p.file_path)))).toBe(false);
    const oldPassword = await api().post('/api/auth/token', { grant_type: 'password', email: DEMO_EMAIL, password: demo.password });
    expect(oldPassword.status).toBe(400);
    const newPassword = await api().post('/api/auth/token', { grant_type: 'password', email: DEMO_EMAIL, password: again.password });
    expect(newPassword.status).toBe(200);
  }, 120_000);
});
