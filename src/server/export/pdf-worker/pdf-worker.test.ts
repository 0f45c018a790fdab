import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { ENTRY_CONTENT_MAX } from '../../../shared/journal';
import { PHOTO_PDF_EXPORTS_PER_WINDOW } from '../../../shared/limits';
import { createEntry, journalUser, multipart, testImage, type JournalTestUser } from '../../test/journal';
import { buildTestApp, type TestApp } from '../../test/app';
import type { ExportInput } from '../format';
import { pdfWorkers, ExportWorkerPool } from './pool';

/** Deterministic filler text: words from a fixed list, picked by a seeded generator. */
function fullEntryText(seed: number): string {
  const words = ['river', 'morning', 'quiet', 'garden', 'letters', 'walked', 'bread', 'window', 'rain', 'laughed', 'train', 'friends'];
  let state = seed;
  let text = '';
  while (text.length < ENTRY_CONTENT_MAX - 12) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    text += words[state % words.length] + (state % 9 === 0 ? '.\n' : ' ');
  }
  return text.slice(0, ENTRY_CONTENT_MAX);
}

describe('PDF export in worker threads', () => {
  let t: TestApp;
  let writer: JournalTestUser;
  let address: string;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-10T12:00:00Z'));
    writer = await journalUser(t);
    for (let i = 0; i < 100; i++) {
      const day = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      await createEntry(t, writer, { content: fullEntryText(i + 1), entry_date: day });
    }
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(() => t.close());

  it('keeps /healthz answering while a large PDF (100 full entries) is being made', async () => {
    const started = performance.now();
    let exportDone = false;
    const exported = fetch(`${address}/api/export?format=pdf`, { headers: writer.headers }).then(async (res) => {
      const bytes = Buffer.from(await res.arrayBuffer());
      exportDone = true;
      return { status: res.status, bytes, ms: performance.now() - started };
    });

    // Ask /healthz over and over while the export runs.
    const latencies: number[] = [];
    while (!exportDone) {
      const asked = performance.now();
      const res = await fetch(`${address}/healthz`);
      await res.arrayBuffer();
      if (!exportDone) latencies.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const pdf = await exported;
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.bytes.subarray(-6).toString('latin1')).toContain('%%EOF');

    // On the event loop, healthz waited for the whole PDF: no answers while it ran. Now it keeps
    // answering, each answer far quicker than the export itself.
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...latencies)).toBeLessThan(pdf.ms / 3);
  }, 120_000);

  it('keeps another user’s journal answering during the export', async () => {
    const reader = await journalUser(t);
    await createEntry(t, reader, { content: 'A short day', entry_date: '2026-03-09' });
    let exportDone = false;
    const started = performance.now();
    const exported = fetch(`${address}/api/export?format=pdf`, { headers: writer.headers }).then(async (res) => {
      await res.arrayBuffer();
      exportDone = true;
      return performance.now() - started;
    });
    const answered: number[] = [];
    while (!exportDone) {
      const asked = performance.now();
      const res = await fetch(`${address}/api/entries`, { headers: reader.headers });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      if (!exportDone) answered.push(performance.now() - asked);
    }
    const exportMs = await exported;
    expect(answered.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...answered)).toBeLessThan(exportMs / 3);
  }, 120_000);
});

describe('a full PDF queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-10T12:00:00Z'));
  });
  afterAll(() => t.close());

  it('answers 429 with a clear message, and the attempt does not count against the user', async () => {
    const user = await journalUser(t);
    const entry = await createEntry(t, user, { content: 'One day', entry_date: '2026-03-09' });
    const form = await multipart({}, [{ name: 'pic.jpeg', bytes: await testImage('jpeg') }]);
    await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
    const full = vi.spyOn(pdfWorkers, 'hasRoom').mockReturnValue(false);
    try {
      // More than the allowance for PDFs with photos (PHOTO_PDF_EXPORTS_PER_WINDOW).
      for (let i = 0; i < PHOTO_PDF_EXPORTS_PER_WINDOW + 3; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/api/export?format=pdf&photos=true', headers: user.headers });
        expect(res.statusCode).toBe(429);
        expect(res.json().error.message).toBe(messages.pdfExport.busy);
      }
    } finally {
      full.mockRestore();
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/export?format=pdf&photos=true', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

describe('the PDF worker pool', () => {
  const input = (content: string): ExportInput => ({
    entries: [{ id: 'e1', user_id: 'u1', content, title: null, tags: [], source: 'web', entry_date: '2026-03-01', word_count: 1, created_at: '2026-03-01T10:00:00.000Z', updated_at: '2026-03-01T10:00:00.000Z', photos: [], foldedTags: [] } as never],
    timezone: 'UTC',
    exportedAt: new Date('2026-03-10T12:00:00Z'),
    today: '2026-03-10',
    photos: false,
  });
  const collect = async (stream: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  it('has room for its workers and queue, then says it is full; queued PDFs still come out whole', async () => {
    const pool = new ExportWorkerPool(1, 1);
    try {
      const first = pool.render({ input: input('first'), readPhoto: async () => null });
      expect(pool.hasRoom()).toBe(true);
      const second = pool.render({ input: input('second'), readPhoto: async () => null });
      expect(pool.hasRoom()).toBe(false);
      expect(() => pool.render({ input: input('third'), readPhoto: async () => null })).toThrow();
      const [a, b] = await Promise.all([collect(first), collect(second)]);
      for (const pdf of [a, b]) expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pool.hasRoom()).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('frees the worker when the download is cancelled', async () => {
    const pool = new ExportWorkerPool(1, 0);
    try {
      const abandoned = pool.render({ input: input('x '.repeat(4000)), readPhoto: async () => null });
      expect(pool.hasRoom()).toBe(false);
      abandoned.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(pool.hasRoom()).toBe(true);
      const next = await collect(pool.render({ input: input('after'), readPhoto: async () => null }));
      expect(next.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    } finally {
      await pool.close();
    }
  }, 60_000);
});
