import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { createEntry, journalUser, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';

describe('photos over 50 megapixels', () => {
  let t: TestApp;
  let user: JournalTestUser;
  let huge: Buffer;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await journalUser(t);
    // 51 megapixels of one colour: 160 KB of PNG that unpacks into 150 MB of pixels.
    huge = await sharp({ create: { width: 10_000, height: 5_100, channels: 3, background: '#88aacc' } }).png({ compressionLevel: 9 }).toBuffer();
  });
  afterAll(() => t.close());

  const post = async (url: string, fields: Record<string, string>, photos: Buffer[]) => {
    const form = await multipart(fields, photos.map((bytes, i) => ({ name: `photo-${i}.png`, bytes })));
    return t.app.inject({ method: 'POST', url, headers: { ...user.headers, ...form.headers }, payload: form.payload });
  };

  it('refuses ten of them in one request with a clear 400, from their headers, saving nothing', async () => {
    const res = await post('/api/entries', { content: 'Ten enormous pictures.' }, Array.from({ length: 10 }, () => huge));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.entries.tooManyPixels);
    const entries = await t.app.inject({ method: 'GET', url: '/api/entries', headers: user.headers });
    expect(entries.json().entries).toEqual([]);
  });

  it('refuses one beside ordinary photos added to an entry, and keeps none of them', async () => {
    const entry = await createEntry(t, user, { content: 'A day out.' });
    const res = await post(`/api/entries/${entry.id}/photos`, {}, [await testImage('jpeg'), huge]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.entries.tooManyPixels);
    const rows = await t.app.ctx.db.selectFrom('journal_photos').select('id').where('entry_id', '=', entry.id).execute();
    expect(rows).toEqual([]);
  });

  it('refuses a header that claims 100 megapixels however little data follows it', async () => {
    // A real PNG header for 10,000 × 10,000 with its data cut short: read, never decoded.
    const claim = (await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer()).subarray(0, 4_096);
    const res = await post('/api/entries', { content: 'A claim.' }, [claim]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.entries.tooManyPixels);
  });
});
