import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORTS_PER_WINDOW } from '../../shared/limits';
import { messages } from '../../shared/messages';
import { newId } from '../ids';
import { createEntry, journalUser, multipart, testImage, type JournalTestUser } from '../test/journal';
import { appendSmsToDayEntry } from '../journal/sms-entries';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, signIn } from '../test/factories';

describe('exporting the journal', () => {
  let t: TestApp;
  let user: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-04-20T15:00:00Z'));
    user = await journalUser(t, { timezone: 'America/Chicago' });
    await createEntry(t, user, { content: 'Oldest entry', entry_date: '2026-04-01', title: 'April fools', tags: 'jokes' });
    t.clock.advance(60_000);
    await createEntry(t, user, { content: '# not a heading\nSecond line', entry_date: '2026-04-10' });
    t.clock.advance(60_000);
    const last = await createEntry(t, user, { content: 'Newest entry, café ☕ and 😀 done', entry_date: '2026-04-15', tags: 'coffee, morning' });
    const form = await multipart({}, [{ name: 'cup.jpg', bytes: await testImage('jpeg', { width: 800, height: 600 }) }, { name: 'see-through.png', bytes: await testImage('png') }]);
    await t.app.inject({ method: 'POST', url: `/api/entries/${last.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
    await appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text: 'Texted in', receivedAt: new Date('2026-04-10T20:00:00Z'), media: [] });
  });
  afterAll(() => t.close());

  // Exports are rate-limited per user, so each test uses its own user or moves the clock.
  const exportAs = (u: JournalTestUser, query: string) => t.app.inject({ method: 'GET', url: `/api/export${query}`, headers: u.headers });
  const fresh = async (q: string) => {
    t.clock.advance(16 * 60 * 1000);
    user = { ...user, headers: bearer(await signIn(t, user)) };
    return exportAs(user, q);
  };

  it('exports plain text, newest first, as journal-export-{date}.txt', async () => {
    const res = await fresh('?format=txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="journal-export-${t.clock.now().toISOString().slice(0, 10)}.txt"`);
    const text = res.body;
    // By day, newest first; within a day, the latest written first.
    const order = ['Newest entry', 'Second line', 'Texted in', 'Oldest entry'].map((s) => text.indexOf(s));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain('Wednesday, April 15, 2026');
    expect(text).toContain('April fools');
    expect(text).toContain('Tags: coffee, morning');
    expect(text).not.toContain('cup.jpg');
  });

  it('names the date in the user’s timezone', async () => {
    t.clock.set(new Date('2026-04-22T03:00:00Z')); // April 21st in Chicago
    const res = await fresh('?format=txt');
    expect(res.headers['content-disposition']).toContain('journal-export-2026-04-21.txt');
  });

  it('includes both ends of the date range, the end day to its last moment', async () => {
    const res = await fresh('?format=json&from=2026-04-01&to=2026-04-10');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['exported_at', 'timezone', 'entries']);
    expect(body.entries.map((e: { entry_date: string }) => e.entry_date)).toEqual(['2026-04-10', '2026-04-10', '2026-04-01']);
    expect(body.entries[2]).toMatchObject({ title: 'April fools', content: 'Oldest entry', tags: ['jokes'], source: 'web', word_count: 2 });
  });

  it('lists photos when asked, and writes Markdown with a heading per entry', async () => {
    const md = await fresh('?format=md&photos=true');
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.headers['content-disposition']).toMatch(/journal-export-\d{4}-\d{2}-\d{2}\.md"$/);
    expect(md.body.match(/^## /gm)).toHaveLength(4);
    expect(md.body).toContain('## Wednesday, April 1, 2026 — April fools');
    expect(md.body).toContain('\\# not a heading');
    expect(md.body).toContain('Photos: cup.jpg, see-through.png');
    const json = (await fresh('?format=json&photos=true')).json();
    expect(json.entries[0].photos.map((p: { file_name: string }) => p.file_name)).toEqual(['cup.jpg', 'see-through.png']);
  });

  it('streams a real PDF, with photos when asked', async () => {
    const plain = await fresh('?format=pdf');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('application/pdf');
    expect(plain.headers['content-disposition']).toMatch(/journal-export-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(plain.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(plain.rawPayload.subarray(-6).toString()).toContain('%%EOF');
    const withPhotos = await fresh('?format=pdf&photos=true');
    expect(withPhotos.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(withPhotos.rawPayload.toString('latin1')).toContain('/Subtype /Image');
    expect(plain.rawPayload.toString('latin1')).not.toContain('/Subtype /Image');
  });

  it('refuses with a clear message when there is nothing to export', async () => {
    const nobody = await journalUser(t);
    const none = await exportAs(nobody, '?format=txt');
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe(messages.entries.exportEmpty);
    const outside = await fresh('?format=txt&from=2020-01-01&to=2020-12-31');
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.message).toBe(messages.entries.exportEmptyRange);
  });

  it('refuses exports past the allowance with 429 and the spec message (limits in export-limits.test.ts)', async () => {
    const writer = await journalUser(t);
    await createEntry(t, writer, { content: 'limited' });
    for (let i = 0; i < EXPORTS_PER_WINDOW; i++) expect((await exportAs(writer, '?format=txt')).statusCode).toBe(200);
    const next = await exportAs(writer, '?format=json');
    expect(next.statusCode).toBe(429);
    expect(next.json()).toEqual({ error: { code: 'RATE_LIMITED', message: 'Too many export attempts. Please wait a bit and try again.' } });
  });

  it('works without a running trial or subscription, but needs sign-in', async () => {
    const lapsed = await journalUser(t);
    await createEntry(t, lapsed, { content: 'written during the trial' });
    await t.app.ctx.db.updateTable('subscribers').set({ trial_end: new Date(t.clock.now().getTime() - 1000).toISOString() }).where('user_id', '=', lapsed.id).execute();
    expect((await t.app.inject({ method: 'GET', url: '/api/entries', headers: lapsed.headers })).statusCode).toBe(402);
    const res = await exportAs(lapsed, '?format=txt');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('written during the trial');
    expect((await t.app.inject({ method: 'GET', url: '/api/export?format=txt' })).statusCode).toBe(401);
  });

  it('refuses an unknown format', async () => {
    expect((await exportAs(user, '?format=docx')).statusCode).toBe(400);
  });
});
