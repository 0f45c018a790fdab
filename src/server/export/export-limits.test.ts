import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORTS_PER_WINDOW, PHOTO_PDF_EXPORTS_PER_WINDOW } from '../../shared/limits';
import { messages } from '../../shared/messages';
import { createEntry, journalUser, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';

const NOW = new Date('2026-11-17T01:57:00Z');
const MINUTE = 60_000;

describe('export allowances', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(NOW);
  });
  afterAll(() => t.close());

  const exportAs = (u: JournalTestUser, query: string) => t.app.inject({ method: 'GET', url: `/api/export${query}`, headers: u.headers });
  const statuses = async (u: JournalTestUser, query: string, n: number) =>
    (await Promise.all(Array.from({ length: n }, () => exportAs(u, query)))).map((r) => r.statusCode);
  const count = (list: number[], status: number) => list.filter((s) => s === status).length;

  async function writerWithPhoto() {
    const writer = await journalUser(t);
    const entry = await createEntry(t, writer, { content: 'A day with a photo', entry_date: '2026-11-16' });
    const form = await multipart({}, [{ name: 'lake.jpg', bytes: await testImage('jpeg', { width: 64, height: 48 }) }]);
    const upload = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...writer.headers, ...form.headers }, payload: form.payload });
    expect(upload.statusCode).toBeLessThan(300);
    return writer;
  }

  it('lets someone try every text format many times: a burst gets exactly the generous allowance', async () => {
    const writer = await journalUser(t);
    await createEntry(t, writer, { content: 'Trying formats', entry_date: '2026-11-16' });
    const formats = ['txt', 'md', 'json', 'pdf'];
    const burst = await Promise.all(Array.from({ length: EXPORTS_PER_WINDOW + 6 }, (_, i) => exportAs(writer, `?format=${formats[i % 4]}`)));
    expect(count(burst.map((r) => r.statusCode), 200)).toBe(EXPORTS_PER_WINDOW);
    const refused = burst.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(6);
    expect(refused[0]!.json()).toEqual({ error: { code: 'RATE_LIMITED', message: messages.entries.exportRateLimited } });

    // The window slides: 15 minutes later there is room again.
    t.clock.advance(15 * MINUTE + 1);
    expect((await exportAs(writer, '?format=txt')).statusCode).toBe(200);
  });

  it('limits PDFs with photos to their own small allowance, exactly, and leaves text exports open', async () => {
    const writer = await writerWithPhoto();
    const burst = await statuses(writer, '?format=pdf&photos=true', PHOTO_PDF_EXPORTS_PER_WINDOW + 3);
    expect(count(burst, 200)).toBe(PHOTO_PDF_EXPORTS_PER_WINDOW);
    expect(count(burst, 429)).toBe(3);

    const refused = await exportAs(writer, '?format=pdf&photos=true');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(messages.exportLimits.photoPdfRateLimited);
    expect(refused.json().error.message.startsWith(messages.entries.exportRateLimited)).toBe(true);

    // The same journal still exports as text, Markdown, JSON and a PDF without photos.
    for (const format of ['txt', 'md', 'json', 'pdf']) expect((await exportAs(writer, `?format=${format}`)).statusCode).toBe(200);
  });

  it('counts a PDF "with photos" of days that have none as an ordinary export', async () => {
    const writer = await journalUser(t);
    await createEntry(t, writer, { content: 'No pictures today', entry_date: '2026-11-16' });
    const burst = await statuses(writer, '?format=pdf&photos=true', PHOTO_PDF_EXPORTS_PER_WINDOW + 2);
    expect(count(burst, 200)).toBe(PHOTO_PDF_EXPORTS_PER_WINDOW + 2);
  });

  it('keeps one user’s allowance apart from another’s', async () => {
    const first = await writerWithPhoto();
    const second = await writerWithPhoto();
    await statuses(first, '?format=pdf&photos=true', PHOTO_PDF_EXPORTS_PER_WINDOW + 1);
    expect((await exportAs(second, '?format=pdf&photos=true')).statusCode).toBe(200);
  });
});
