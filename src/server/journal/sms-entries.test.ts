import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids';
import { buildTestApp, type TestApp } from '../test/app';
import { appendSmsToDayEntry } from './sms-entries';
import { journalUser, listEntries, testImage } from '../test/journal';

const SID = 'AC00000000000000000000000000000000';
const TOKEN = 'media-test-token';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('texts land in the day entry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('creates one SMS entry per local day and appends later texts after a blank line', async () => {
    t.clock.set(new Date('2026-06-01T09:00:00Z'));
    const user = await journalUser(t);
    const ctx = t.app.ctx;
    const first = await appendSmsToDayEntry(ctx, { userId: user.id, messageId: newId(), text: '  Woke up   early ', receivedAt: new Date('2026-06-01T09:00:00Z'), media: [] });
    const second = await appendSmsToDayEntry(ctx, { userId: user.id, messageId: newId(), text: 'Ran 5k', receivedAt: new Date('2026-06-01T18:00:00Z'), media: [] });
    expect([second.entryId, second.entryDate]).toEqual([first.entryId, first.entryDate]);
    expect(first.entryDate).toBe('2026-06-01');
    // Only the first text of the day started an entry (milestones are checked for it alone).
    expect([first.startedEntry, second.startedEntry]).toEqual([true, false]);
    const next = await appendSmsToDayEntry(ctx, { userId: user.id, messageId: newId(), text: 'New day', receivedAt: new Date('2026-06-02T08:00:00Z'), media: [] });
    expect(next.entryId).not.toBe(first.entryId);
    const { entries } = await listEntries(t, user);
    expect(entries.map((e) => [e.source, e.entry_date, e.content, e.word_count])).toEqual([
      ['sms', '2026-06-02', 'New day', 2],
      ['sms', '2026-06-01', 'Woke up early\n\nRan 5k', 5],
    ]);
  });

  it('lists every entry a text started at once, with the journal already in memory', async () => {
    t.clock.set(new Date('2026-06-03T09:00:00Z'));
    const user = await journalUser(t);
    const ctx = t.app.ctx;
    await appendSmsToDayEntry(ctx, { userId: user.id, messageId: newId(), text: 'A short morning note.', receivedAt: t.clock.now(), media: [] });
    expect((await listEntries(t, user)).entries).toHaveLength(1); // the journal is now held in memory
    // A text longer than two entries hold (one recorded before the webhook's limit): three more entries.
    const long = 'word '.repeat(4_500).trim();
    const appended = await appendSmsToDayEntry(ctx, { userId: user.id, messageId: newId(), text: long, receivedAt: t.clock.now(), media: [] });
    const { entries } = await listEntries(t, user);
    // The day's parts in order, the last one the text ended in.
    expect(entries.at(-1)!.id).toBe(appended.entryId);
    expect(entries.map((e) => e.content.length)).toEqual(['A short morning note.'.length, 10_000, 10_000, long.length - 20_000]);
  });

  it("uses the profile's timezone for the day", async () => {
    const user = await journalUser(t, { timezone: 'America/Los_Angeles' });
    const late = await appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text: 'late', receivedAt: new Date('2026-06-02T06:30:00Z'), media: [] });
    expect(late.entryDate).toBe('2026-06-01');
  });

  it('keeps a web entry of the same day apart', async () => {
    const user = await journalUser(t);
    await t.app.inject({ method: 'POST', url: '/api/entries', headers: user.headers, payload: { content: 'typed' } });
    await appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text: 'texted', receivedAt: t.clock.now(), media: [] });
    const { entries } = await listEntries(t, user);
    expect(entries.map((e) => e.source).sort()).toEqual(['sms', 'web']);
  });

  it('stays one entry when texts of the same day are processed at once', async () => {
    const user = await journalUser(t);
    const texts = Array.from({ length: 6 }, (_, i) => `text ${i}`);
    const results = await Promise.all(texts.map((text) => appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text, receivedAt: t.clock.now(), media: [] })));
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    const { entries } = await listEntries(t, user);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.content.split('\n\n').sort()).toEqual(texts);
  });

  it('tells the open pages', async () => {
    const user = await journalUser(t);
    const seen: unknown[] = [];
    const stop = t.app.ctx.events.subscribe(user.id, (e) => seen.push(e));
    const { entryId } = await appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text: 'hi', receivedAt: t.clock.now(), media: [] });
    stop();
    expect(seen).toEqual([{ type: 'entries.changed', entryId }]);
  });

  it('keeps the photos of a photo-only text (simulator: no credentials), skipping what is not an image', async () => {
    const jpeg = await testImage('jpeg', { exif: 'MMS-GPS' });
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
      if (req.url === '/note.txt') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('not an image');
      res.writeHead(404).end();
    });
    const base = await listen(server);
    try {
      const user = await journalUser(t);
      const media = ['/photo.jpg', '/note.txt', '/missing.jpg'].map((p) => ({ url: base + p, contentType: 'image/jpeg' }));
      await appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text: '', receivedAt: t.clock.now(), media });
      const [entry] = (await listEntries(t, user)).entries;
      expect(entry!.content).toBe('');
      expect(entry!.photos.map((p) => p.mime_type)).toEqual(['image/jpeg']);
      const stored = (await t.app.inject({ method: 'GET', url: entry!.photos[0]!.url })).rawPayload;
      expect(stored.includes('MMS-GPS')).toBe(false);
      expect(seen.every((h) => h.authorization === undefined)).toBe(true);
    } finally {
      server.close();
    }
  });

  it('appends one message once, however often it is processed', async () => {
    const png = await testImage('png');
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    const base = await listen(server);
    try {
      const user = await journalUser(t);
      const text = { userId: user.id, messageId: newId(), text: 'Only once', receivedAt: t.clock.now(), media: [{ url: `${base}/p.png`, contentType: 'image/png' }] };
      // Two workers at once (a claim that ran out while the first was still busy), then once more.
      const [first, second] = await Promise.all([appendSmsToDayEntry(t.app.ctx, text), appendSmsToDayEntry(t.app.ctx, text)]);
      const again = await appendSmsToDayEntry(t.app.ctx, text);
      const where = (r: typeof first) => [r.entryId, r.entryDate];
      expect([where(second), where(again)]).toEqual([where(first), where(first)]);
      await appendSmsToDayEntry(t.app.ctx, { ...text, messageId: newId(), text: 'Another text' });
      const { entries } = await listEntries(t, user);
      expect(entries.map((e) => [e.id, e.content, e.photos.length])).toEqual([[first.entryId, 'Only once\n\nAnother text', 2]]);
    } finally {
      server.close();
    }
  });

  it('does not bring back a text whose entry was deleted', async () => {
    const user = await journalUser(t);
    const text = { userId: user.id, messageId: newId(), text: 'Regretted', receivedAt: t.clock.now(), media: [] };
    const { entryId } = await appendSmsToDayEntry(t.app.ctx, text);
    await t.app.inject({ method: 'DELETE', url: `/api/entries/${entryId}`, headers: user.headers });
    await appendSmsToDayEntry(t.app.ctx, text);
    expect((await listEntries(t, user)).entries).toEqual([]);
  });

  it('refuses a text with neither words nor usable photos for a new day', async () => {
    const user = await journalUser(t);
    await expect(appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text: '  ', receivedAt: t.clock.now(), media: [] })).rejects.toThrow('Content cannot be empty');
  });
});

describe('MMS media from Twilio', () => {
  let t: TestApp;
  let api: Server;
  let cdn: Server;
  let apiUrl: string;
  const apiHeaders: IncomingHttpHeaders[] = [];
  const cdnHeaders: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    const jpeg = await testImage('jpeg');
    const png = await testImage('png');
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    cdn = createServer((req, res) => {
      cdnHeaders.push(req.headers);
      if (req.url === '/signed/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
      res.writeHead(404).end();
    });
    const cdnUrl = await listen(cdn);
    api = createServer((req, res) => {
      apiHeaders.push(req.headers);
      const expected = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return res.writeHead(401).end();
      if (req.url?.endsWith('/Media/ME1')) return res.writeHead(307, { location: `${cdnUrl}/signed/photo.jpg` }).end();
      if (req.url?.endsWith('/Media/ME2')) return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (req.url?.endsWith('/Media/BIG')) return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(big);
      res.writeHead(404).end();
    });
    apiUrl = await listen(api);
    t = await buildTestApp({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+15555550100', TWILIO_API_URL: apiUrl });
  });
  afterAll(async () => {
    await t.close();
    api.close();
    cdn.close();
  });

  it('fetches with Basic auth, follows redirects without passing the credentials on, and keeps to 5 MB in all', async () => {
    const user = await journalUser(t);
    const media = ['ME1', 'ME2', 'BIG', 'BIG'].map((id) => ({ url: `${apiUrl}/2010-04-01/Accounts/${SID}/Messages/MM1/Media/${id}`, contentType: 'image/jpeg' }));
    await appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text: 'Look at this', receivedAt: t.clock.now(), media });
    const [entry] = (await listEntries(t, user)).entries;
    expect(entry!.content).toBe('Look at this');
    // ME1 (via the redirect) and ME2 are images; the first BIG is not one, the second would pass 5 MB.
    expect(entry!.photos.map((p) => p.mime_type)).toEqual(['image/jpeg', 'image/png']);
    expect(apiHeaders.every((h) => h.authorization?.startsWith('Basic '))).toBe(true);
    expect(cdnHeaders).toHaveLength(1);
    expect(cdnHeaders[0]!.authorization).toBeUndefined();
  });
});
