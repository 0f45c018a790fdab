import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImportFileError } from '../../../../shared/import/file-error';
import { parseImportBytes } from '../../../../shared/import/read';
import { sniffImport } from '../../../../shared/import/sniff';
import { countWords } from '../../../../shared/journal-rules';
import { messages } from '../../../../shared/messages';
import type { VaultSegment } from '../../../../shared/vault';
import type { SealedImportEntry, SealedImportResult } from '../../../../shared/vault-import';
import { voiceMessages } from '../../../../shared/voice-messages';
import { ApiError, apiErrorFrom, NetworkError } from '../../../api/errors';
import { installFakeApi, networkDown, reply, type FakeApi, type Handler } from '../../../test/fake-api';
import { postForm } from '../../journal/http';
import { loadSodium } from '../sodium';
import { openFile, openSegment, openText, type VaultKeys } from '../vault-crypto';
import { readImportFile } from './read-file';
import { importIntoVault, type VaultImportDeps } from './vault-import';

// The fixtures the server's import tests read: the browser must make of them what the server does.
const fixture = (name: string) => new Uint8Array(readFileSync(join(process.cwd(), 'src/server/test/fixtures', name)));
const NOW = new Date('2026-05-10T12:00:00Z');
/** A Day One md5 made of one character, so a test can tell its files apart. */
const md5 = (c: string) => c.repeat(32);

interface Sent {
  entries: SealedImportEntry[];
  photos: Array<{ entryId: string; form: FormData }>;
  /** Every recording the server took, and whether it was added (201) or was there already by its source key (200). */
  recordings: Array<{ entryId: string; form: FormData; added: boolean }>;
}

/** What the stand-in server keeps between imports: entries by import key, recordings' source keys (all, and by entry), the journal's own entry ids, and the entries with photos. */
interface Kept {
  seen: Map<string, string>;
  stored: Set<string>;
  held: Map<string, Set<string>>;
  own: ReadonlySet<string>;
  withPhotos: Set<string>;
}

/** How the stand-in server hears a recording: "audio…" is audio, "long…" is longer than a voice note, the rest not audio. */
async function refusalOf(form: FormData): Promise<ApiError | null> {
  const heard = new TextDecoder().decode(await (form.get('file') as Blob).slice(0, 5).arrayBuffer());
  if (heard === 'audio') return null;
  return new ApiError(400, 'INVALID_INPUT', heard === 'long.' ? voiceMessages.errors.tooLong() : voiceMessages.errors.notAudio);
}

/** A stand-in server: every entry is new unless its key was sent before, or (our own export) its id is the journal's. */
function fakeServer(keys: VaultKeys, kept: Partial<Kept> = {}) {
  const { seen = new Map<string, string>(), stored = new Set<string>(), held = new Map<string, Set<string>>(), own = new Set<string>(), withPhotos = new Set<string>() } = kept;
  const sent: Sent = { entries: [], photos: [], recordings: [] };
  let next = 0;
  const deps: VaultImportDeps = {
    keys,
    // The canvas re-encoding needs a browser: here a JPEG or PNG passes as it is, a HEIC does not.
    preparePhoto: async (file) => {
      if (!['image/jpeg', 'image/png'].includes(file.type)) throw new Error('not a picture we keep');
      return { full: new Blob([await file.arrayBuffer()], { type: file.type }), thumb: new Blob([`thumb of ${file.name}`], { type: 'image/webp' }) };
    },
    sendEntries: async (entries): Promise<SealedImportResult> => {
      expect(entries.length).toBeLessThanOrEqual(50);
      sent.entries.push(...entries);
      return {
        entries: entries.map((entry) => {
          const existing = seen.get(entry.import_key) ?? (entry.original_id && own.has(entry.original_id) ? entry.original_id : undefined);
          if (existing) return { id: existing, imported: false as const, has_photos: withPhotos.has(existing), recording_keys: [...(held.get(existing) ?? [])] };
          const id = `entry-${(next += 1)}`;
          seen.set(entry.import_key, id);
          return { id, imported: true as const };
        }),
      };
    },
    sendPhotos: async (entryId, form) => {
      sent.photos.push({ entryId, form });
      withPhotos.add(entryId);
    },
    // The answers of POST /api/entries/:id/recordings: 201, 200 for a source key it has, or 400 with the reason, as the server's.
    sendRecording: async (entryId, form) => {
      const refused = await refusalOf(form);
      if (refused) throw refused;
      const key = form.get('source_key') as string;
      sent.recordings.push({ entryId, form, added: !stored.has(key) });
      stored.add(key);
      held.set(entryId, new Set([...(held.get(entryId) ?? []), key]));
    },
  };
  return { deps, sent, seen, stored, held, own, withPhotos };
}

/** An error answer as the app's client makes it, headers and all. */
const answer = (status: number, message: string, headers?: Record<string, string>) => apiErrorFrom(status, { error: { code: `HTTP_${status}`, message } }, new Headers(headers));

/** Fails with each of `failures` in turn, then does as `next`; notes the (fake) time of every try. */
function flaky<A extends unknown[], R>(failures: unknown[], next: (...args: A) => Promise<R>) {
  const tries: number[] = [];
  const send = async (...args: A): Promise<R> => {
    tries.push(Date.now());
    if (failures.length > 0) throw failures.shift();
    return next(...args);
  };
  return { send, tries };
}

/** The waits between tries, in milliseconds. */
const waits = (tries: readonly number[]) => tries.slice(1).map((at, i) => at - tries[i]!);

/** Lets the fake clock run until the import ends (at most an hour of it). */
async function finish<T>(run: Promise<T>): Promise<T> {
  let settled = false;
  run.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let ms = 0; !settled && ms < 3_600_000; ms += 100) await vi.advanceTimersByTimeAsync(100);
  return run;
}

/** recordingsZip's two entries, then two more with a photo each (entry-3 and entry-4 on a new journal). */
function photosZip() {
  const photo = (c: string) => ({ identifier: `PHOTO${c}`, md5: md5(c), type: 'jpeg' });
  return recordingsZip({
    entries: [
      { uuid: 'C1B2C3D4E5F60718293A4B5C6D7E8F90', creationDate: '2024-05-03T07:00:00Z', timeZone: 'Europe/London', text: 'The heron', photos: [photo('1')] },
      { uuid: 'D1B2C3D4E5F60718293A4B5C6D7E8F90', creationDate: '2024-05-04T07:00:00Z', timeZone: 'Europe/London', text: 'The weir again', photos: [photo('2')] },
    ],
    files: { [`photos/${md5('1')}.jpeg`]: new TextEncoder().encode('heron-jpeg'), [`photos/${md5('2')}.jpeg`]: new TextEncoder().encode('weir-jpeg') },
  });
}

/** A Day One ZIP of two entries with recordings (all audio): three on the first, one on the second; and more `entries` if given. */
function recordingsZip(extra: { entries?: object[]; files?: Record<string, Uint8Array> } = {}) {
  const audio = (c: string) => ({ identifier: `AUDIO${c}`, md5: md5(c), format: 'm4a' });
  const entries = [
    { uuid: 'A1B2C3D4E5F60718293A4B5C6D7E8F90', creationDate: '2024-05-01T07:00:00Z', timeZone: 'Europe/London', text: 'By the weir', audios: [audio('a'), audio('b'), audio('c')] },
    { uuid: 'B1B2C3D4E5F60718293A4B5C6D7E8F90', creationDate: '2024-05-02T07:00:00Z', timeZone: 'Europe/London', text: 'Walk home', audios: [audio('d')] },
    ...(extra.entries ?? []),
  ];
  const files: Record<string, Uint8Array> = { 'Journal.json': new TextEncoder().encode(JSON.stringify({ metadata: { version: '1.0' }, entries })), ...extra.files };
  for (const c of 'abcd') files[`audios/${md5(c)}.m4a`] = new TextEncoder().encode(`audio: ${c}`);
  const zip = zipSync(files);
  return () => readImportFile(zip, { timeZone: 'Europe/London', now: NOW });
}

describe('a Vault import read and sealed in the browser', () => {
  let keys: VaultKeys;
  beforeAll(async () => {
    const sodium = await loadSodium();
    const pair = sodium.crypto_box_keypair();
    keys = { publicKey: pair.publicKey, privateKey: pair.privateKey };
  });

  const open = (entries: SealedImportEntry[]) => Promise.all(entries.map(async (e) => ({ ...e, segment: await openSegment(keys, e.sealed[0]!) })));

  it('seals a jrnl journal entry by entry as one segment each, as the server import writes it', async () => {
    const bytes = fixture('jrnl/default-timeformat.txt');
    const { deps, sent } = fakeServer(keys);
    const result = await importIntoVault(readImportFile(bytes, { timeZone: 'America/New_York', now: NOW }), deps);
    expect(result).toEqual({ id: 'vault', status: 'done', total: 9, imported: 9, skipped: 0, photos_imported: 0, photos_skipped: 0, reasons: [], error: null });

    const opened = (await open(sent.entries)).sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
    // What the server import stored for this file (import/import.test.ts), opened here.
    expect(opened.map((e) => [e.entry_date, e.segment.title ?? null, e.segment.text.split('\n')[0], e.segment.tags ?? [], e.time_zone])).toEqual([
      ['2019-07-01', 'A partial date', 'jrnl reads a missing day as the first of the month.', [], 'America/New_York'],
      ['2019-07-18', 'The first entry', 'Time machines are hard to build. Mine is still in the garage.', [], 'America/New_York'],
      ['2022-06-01', 'Started the new job today. Nervous but excited @work', 'Met the team, set up my laptop.', ['work', 'sam'], 'America/New_York'],
      ['2022-06-02', 'Long day! Did not get much done.', 'Tomorrow: finish the onboarding docs. @work', ['work'], 'America/New_York'],
      ['2022-06-03', 'Call with the landlord about the leak.', 'He says Monday.', ['starred'], 'America/New_York'],
      ['2022-06-04', 'Ported the parser to @C++ and tested it on @os/2; @c# next.', 'Footnotes look like this[1] and stay in the text.', ['c++', 'os/2', 'c#'], 'America/New_York'],
      ['2022-06-05', null, 'Called mom.', [], 'America/New_York'],
      ['2022-06-06', 'Two sentences on one line.', 'The second one is the body.', [], 'America/New_York'],
      ['2022-06-07', null, 'Sunrise run, 5 km in 27:30!', [], 'America/New_York'],
    ]);
    expect(opened[1]!.created_at).toBe('2019-07-18T18:23:00.000Z');

    // Field by field, the shared reader's entries as the server's write rules keep them.
    const parsed = parseImportBytes(bytes, { timeZone: 'America/New_York', now: NOW }).entries;
    expect(opened).toHaveLength(parsed.length);
    for (const entry of parsed) {
      const [title, text] = entry.content === '' ? [null, entry.title!] : [entry.title, entry.content];
      const mine = opened.find((e) => e.created_at === entry.createdAt)!;
      const segment: VaultSegment = { text, ...(title !== null && { title }), ...(entry.tags.length > 0 && { tags: entry.tags }), at: entry.createdAt, source: 'web' };
      expect(mine.segment).toEqual(segment);
      expect([mine.entry_date, mine.updated_at, mine.source, mine.word_count]).toEqual([entry.entryDate, entry.updatedAt, 'web', countWords(text)]);
    }
    // Nothing of the words goes in the clear.
    expect(JSON.stringify(sent.entries)).not.toContain('landlord');
  });

  it('seals jrnl JSON, Day One JSON and our own JSON export the same way', async () => {
    const ownExport = new TextEncoder().encode(
      JSON.stringify({ exported_at: '2026-01-01T00:00:00Z', timezone: 'Europe/Paris', entries: [{ id: 'e1', title: 'Picnic', content: 'By the lake.', source: 'sms', entry_date: '2025-07-14', created_at: '2025-07-14T10:00:00Z', tags: ['summer'] }] }),
    );
    for (const [bytes, count] of [
      [fixture('jrnl/export.json'), null],
      [fixture('dayone-journal.json'), null],
      [ownExport, 1],
    ] as const) {
      const { deps, sent } = fakeServer(keys);
      const reading = readImportFile(bytes, { timeZone: 'UTC', now: NOW });
      const result = await importIntoVault(reading, deps);
      expect(result.status).toBe('done');
      if (count) expect(result.imported).toBe(count);
      expect(result.imported + result.skipped).toBe(reading.entries.length);
      const opened = await open(sent.entries);
      for (const entry of opened) expect(entry.segment.at).toBe(entry.created_at);
      if (count) {
        expect(opened[0]).toMatchObject({ entry_date: '2025-07-14', source: 'sms', time_zone: 'Europe/Paris', original_id: 'e1', segment: { text: 'By the lake.', title: 'Picnic', tags: ['summer'], source: 'sms' } });
      }
    }
  });

  it('imports a Day One ZIP with its photos sealed, and says what was left out as the server does', async () => {
    const photos: Record<string, [string, Uint8Array]> = {
      MD5_SUNRISE: ['jpeg', new TextEncoder().encode('sunrise-jpeg-bytes')],
      MD5_KOALA: ['png', new TextEncoder().encode('koala-png-bytes')],
      MD5_LIBERTY: ['jpeg', new TextEncoder().encode('liberty-jpeg-bytes')],
      MD5_HEIC: ['heic', new TextEncoder().encode('heic-bytes')],
    };
    let text = new TextDecoder().decode(fixture('dayone/brisbane-trip.json'));
    const files: Record<string, Uint8Array> = {};
    for (const [index, [placeholder, [type, bytes]]] of Object.entries(photos).entries()) {
      const md5 = String(index + 1).repeat(32);
      text = text.replace(placeholder, md5);
      files[`photos/${md5}.${type}`] = bytes;
    }
    files['Journal.json'] = new TextEncoder().encode(text);
    files['videos/6a1b2c3d4e5f60718293a4b5c6d7e8f9.mov'] = new Uint8Array(2048);
    files['audios/7b2c3d4e5f60718293a4b5c6d7e8f90a.m4a'] = new Uint8Array(1024);

    const { deps, sent } = fakeServer(keys);
    const result = await importIntoVault(readImportFile(zipSync(files), { timeZone: 'America/Chicago', now: NOW }), deps);
    // The server's import of the same file (import/import-day-one.test.ts).
    expect(result).toMatchObject({ status: 'done', total: 5, imported: 5, skipped: 0, photos_imported: 3, photos_skipped: 2 });
    expect(result.reasons).toEqual([
      { reason: 'photo_missing', count: 1, examples: ['d41d8cd98f00b204e9800998ecf8427e.jpeg (2024-03-06)'] },
      { reason: 'photo_unsupported', count: 1, examples: [expect.stringMatching(/^[0-9a-f]{32}\.heic \(2024-03-07\)$/)] },
      { reason: 'audio_unreadable', count: 1, examples: ['7b2c3d4e5f60718293a4b5c6d7e8f90a.m4a (2024-03-04)'] },
      { reason: 'video', count: 1, examples: ['6a1b2c3d4e5f60718293a4b5c6d7e8f9.mov (2024-03-04)'] },
    ]);

    const opened = await open(sent.entries);
    const dawn = opened.find((e) => e.segment.title === 'South Bank at dawn')!;
    expect([dawn.entry_date, dawn.created_at, dawn.time_zone, dawn.segment.text, dawn.segment.tags]).toEqual([
      '2024-03-04',
      '2024-03-03T19:34:00.000Z',
      'Australia/Brisbane',
      'Walked along the river before the heat. The ferries were already busy!',
      ['travel', 'brisbane', 'starred'],
    ]);
    // A heading whose only photo is HEIC: the heading is the entry's text; a photo alone keeps no words.
    expect(opened.find((e) => e.segment.text === 'Last night in Brisbane')?.segment.title).toBeUndefined();
    expect(opened.find((e) => e.entry_date === '2024-03-05')?.segment).toMatchObject({ text: '' });

    // Each photo sealed: the file, its thumbnail and its name open with the private key only.
    const dawnId = `entry-${sent.entries.indexOf(sent.entries.find((e) => e.import_key === dawn.import_key)!) + 1}`;
    const upload = sent.photos.find((p) => p.entryId === dawnId)!;
    const full = upload.form.getAll('photos')[0] as Blob;
    expect(new TextDecoder().decode(await openFile(keys, new Uint8Array(await full.arrayBuffer())))).toBe('sunrise-jpeg-bytes');
    expect(new TextDecoder().decode(await openFile(keys, new Uint8Array(await (upload.form.getAll('thumbs')[0] as Blob).arrayBuffer())))).toMatch(/^thumb of /);
    expect(await openText(keys, upload.form.getAll('photo_names')[0] as string)).toBe(`${'1'.repeat(32)}.jpeg`);
    expect(upload.form.getAll('photo_types')).toEqual(['image/jpeg']);
    expect(sent.photos.reduce((n, p) => n + p.form.getAll('photos').length, 0)).toBe(3);
  });

  it('sends a Day One ZIP’s recordings to their entries with the transcripts the file gives, and counts what it cannot as the server does', async () => {
    const journal = {
      metadata: { version: '1.0' },
      entries: [
        {
          uuid: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
          creationDate: '2024-05-01T07:00:00Z',
          timeZone: 'Europe/London',
          text: '# By the weir\n\nWe saw the heron.',
          audios: [
            { identifier: 'AUDIO1', md5: md5('a'), format: 'aac', transcription: 'We saw the heron.', orderInEntry: 0 },
            { identifier: 'AUDIO2', md5: md5('b'), format: 'm4a', transcription: 'And a kingfisher.', orderInEntry: 1 },
            { identifier: 'AUDIO3', md5: md5('c'), format: 'mp3', orderInEntry: 2 },
          ],
        },
        {
          uuid: 'B1B2C3D4E5F60718293A4B5C6D7E8F90',
          creationDate: '2024-05-02T07:00:00Z',
          timeZone: 'Europe/London',
          text: 'Walk home',
          audios: [
            { identifier: 'AUDIO4', md5: md5('d'), format: 'm4a', orderInEntry: 0 },
            { identifier: 'AUDIO5', md5: md5('e'), format: 'm4a', orderInEntry: 1 },
            { identifier: 'AUDIO6', md5: md5('f'), format: 'm4a', orderInEntry: 2 },
          ],
        },
        // Nothing but a recording: it comes in for it, as on the server.
        { uuid: 'C1B2C3D4E5F60718293A4B5C6D7E8F90', creationDate: '2024-05-03T07:00:00Z', timeZone: 'Europe/London', audios: [{ identifier: 'AUDIO7', md5: md5('7'), format: 'm4a' }] },
      ],
    };
    const json = new TextEncoder().encode(JSON.stringify(journal));
    const bytes = (text: string) => new TextEncoder().encode(text);
    const zip = zipSync({
      'Journal.json': json,
      [`audios/${md5('a')}.m4a`]: bytes('audio: the heron'),
      [`audios/${md5('b')}.m4a`]: bytes('audio: a kingfisher'),
      [`audios/${md5('c')}.mp3`]: bytes('audio: no words known'),
      // AUDIO4's file is missing; AUDIO5 is longer than a voice note may be; AUDIO6 is not audio.
      [`audios/${md5('e')}.m4a`]: bytes('long. and longer'),
      [`audios/${md5('f')}.m4a`]: bytes('a text file'),
      [`audios/${md5('7')}.m4a`]: bytes('audio: alone'),
    });
    const read = () => readImportFile(zip, { timeZone: 'Europe/London', now: NOW });

    const first = fakeServer(keys);
    const result = await importIntoVault(read(), first.deps);
    expect(result).toMatchObject({ status: 'done', total: 3, imported: 3, skipped: 0, photos_imported: 0, photos_skipped: 0 });
    expect(result.reasons).toEqual([
      { reason: 'audio_missing', count: 1, examples: [`${md5('d')}.m4a (2024-05-02)`] },
      { reason: 'audio_unreadable', count: 1, examples: [`${md5('f')}.m4a (2024-05-02)`] },
      { reason: 'audio_over_limit', count: 1, examples: [`${md5('e')}.m4a (2024-05-02)`] },
    ]);
    // Each to its entry, after the entry is in, in the entry's order, with the file's words.
    const idOf = (createdAt: string) => `entry-${first.sent.entries.findIndex((e) => e.created_at === createdAt) + 1}`;
    const weir = idOf('2024-05-01T07:00:00.000Z');
    const uploads = await Promise.all(
      first.sent.recordings.map(async ({ entryId, form }) => ({
        entryId,
        fields: [...form.keys()],
        transcript: form.get('transcript'),
        inText: form.get('transcript_in_text'),
        audio: new TextDecoder().decode(await (form.get('file') as Blob).arrayBuffer()),
      })),
    );
    expect(uploads).toEqual([
      { entryId: weir, fields: ['transcript', 'transcript_in_text', 'source_key', 'file'], transcript: 'We saw the heron.', inText: 'true', audio: 'audio: the heron' },
      { entryId: weir, fields: ['transcript', 'transcript_in_text', 'source_key', 'file'], transcript: 'And a kingfisher.', inText: 'false', audio: 'audio: a kingfisher' },
      // No words known: the server hears it once.
      { entryId: weir, fields: ['source_key', 'file'], transcript: null, inText: null, audio: 'audio: no words known' },
      { entryId: idOf('2024-05-03T07:00:00.000Z'), fields: ['source_key', 'file'], transcript: null, inText: null, audio: 'audio: alone' },
    ]);
    expect((await open(first.sent.entries)).find((e) => e.created_at === '2024-05-03T07:00:00.000Z')!.segment.text).toBe('');
    // Each recording's source key is its identity in the file, hashed under the vault's key: the server never sees Day One's ids.
    const sourceKeys = first.sent.recordings.map(({ form }) => form.get('source_key') as string);
    expect(new Set(sourceKeys).size).toBe(4);
    for (const key of sourceKeys) expect(key).toMatch(/^import:[\w-]{43}$/);

    // The same file again: its entries are in, and the server says which recordings each holds: none is read or sent again.
    const again = fakeServer(keys, first);
    expect(await importIntoVault(read(), again.deps)).toMatchObject({ status: 'done', imported: 0, skipped: 3 });
    expect(again.sent.recordings).toEqual([]);
    expect(first.stored.size).toBe(4);

    // Day One's Journal.json alone names recordings it does not hold.
    const alone = fakeServer(keys);
    const fromJson = await importIntoVault(readImportFile(json, { timeZone: 'Europe/London', now: NOW }), alone.deps);
    expect(fromJson.reasons).toEqual([
      { reason: 'empty', count: 1, examples: ['2024-05-03'] },
      { reason: 'audio_not_in_file', count: 7, examples: expect.any(Array) },
    ]);
    expect(alone.sent.recordings).toEqual([]);

    // An upload that fails for another reason stops the import, as a photo's does.
    const offline = fakeServer(keys);
    const stopped = await importIntoVault(read(), { ...offline.deps, sendRecording: () => Promise.reject(new Error('offline')) });
    expect(stopped).toMatchObject({ status: 'failed', error: messages.importer.failed });
  });

  it('skips what an earlier import brought in, by keys made from the private key that the same file makes again', async () => {
    const bytes = fixture('jrnl/default-timeformat.txt');
    const first = fakeServer(keys);
    await importIntoVault(readImportFile(bytes, { timeZone: 'UTC', now: NOW }), first.deps);
    const again = fakeServer(keys, first);
    const result = await importIntoVault(readImportFile(bytes, { timeZone: 'UTC', now: NOW }), again.deps);
    expect(result).toMatchObject({ status: 'done', total: 9, imported: 0, skipped: 9 });
    expect(result.reasons[0]).toMatchObject({ reason: 'already_imported', count: 9 });
    expect(again.sent.entries.map((e) => e.import_key)).toEqual(first.sent.entries.map((e) => e.import_key));

    // Another vault's keys for the same file are others: the keys depend on the private key.
    const sodium = await loadSodium();
    const pair = sodium.crypto_box_keypair();
    const other = fakeServer({ publicKey: pair.publicKey, privateKey: pair.privateKey });
    await importIntoVault(readImportFile(bytes, { timeZone: 'UTC', now: NOW }), other.deps);
    expect(other.sent.entries.map((e) => e.import_key)).not.toContain(first.sent.entries[0]!.import_key);
  });

  it('refuses a file it cannot read with the server’s words, and reports a failed request as failed', async () => {
    expect(() => readImportFile(new TextEncoder().encode('{"entries": [oops'), { timeZone: 'UTC', now: NOW })).toThrow(new ImportFileError(messages.importer.brokenJson));
    expect(() => readImportFile(new TextEncoder().encode('just some notes'), { timeZone: 'UTC', now: NOW })).toThrow(messages.importer.unknownFormat);
    expect(() => readImportFile(zipSync({ 'notes.txt': new Uint8Array(3) }), { timeZone: 'UTC', now: NOW })).toThrow(messages.importer.zipWithoutJournal);
    expect(() => readImportFile(new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]), { timeZone: 'UTC', now: NOW })).toThrow(messages.importer.brokenZip);
    // The server's first look, made here too: an encrypted jrnl journal or a picture is named as such.
    expect(() => sniffImport(new TextEncoder().encode('JRNLv3 ciphertext follows'), true)).toThrow(messages.importer.encrypted);
    expect(() => sniffImport(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), true)).toThrow(messages.importer.unknownFormat);
    expect(sniffImport(fixture('jrnl/default-timeformat.txt'), true)).toBe('text');

    const { deps } = fakeServer(keys);
    const result = await importIntoVault(readImportFile(fixture('jrnl/default-timeformat.txt'), { timeZone: 'UTC', now: NOW }), {
      ...deps,
      sendEntries: () => Promise.reject(new Error('offline')),
    });
    expect(result).toMatchObject({ status: 'failed', imported: 0, error: messages.importer.failed });
  });

  describe('when a request meets a passing failure', () => {
    let api: FakeApi;
    beforeEach(() => {
      vi.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      api = installFakeApi();
    });
    afterEach(() => {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    });

    /** POST /api/entries/:id/recordings through the app's own multipart client, to the fake API at fetch. */
    const overFetch: VaultImportDeps['sendRecording'] = (entryId, form) => postForm(`/api/entries/${entryId}/recordings`, form);

    it('tries a recording again after a 503 and ends done, with the recording sent once', async () => {
      const server = fakeServer(keys);
      const upload = flaky([answer(503, 'Service unavailable')], server.deps.sendRecording);
      const result = await finish(importIntoVault(recordingsZip()(), { ...server.deps, sendRecording: upload.send }));
      expect(result).toMatchObject({ status: 'done', imported: 2, skipped: 0, reasons: [], error: null });
      expect(waits(upload.tries)).toEqual([1_000, 0, 0, 0]);
      expect(server.sent.recordings.map(({ entryId, added }) => [entryId, added])).toEqual([
        ['entry-1', true],
        ['entry-1', true],
        ['entry-1', true],
        ['entry-2', true],
      ]);
      expect(server.stored.size).toBe(4);
    });

    it('waits as long as a 429’s Retry-After says, and tries again after a network error', async () => {
      const tries: number[] = [];
      const noted = (answer: Handler): Handler => (request) => {
        tries.push(Date.now());
        return answer(request);
      };
      const added = () => reply(201, { recording: { id: 'recording' } });
      const route = 'POST /api/entries/entry-1/recordings';
      api.once(route, noted(() => reply(429, { error: { code: 'RATE_LIMITED', message: 'Too many requests' } }, { 'Retry-After': '3' })));
      api.once(route, noted(networkDown));
      api.on(route, noted(added));
      api.on('POST /api/entries/entry-2/recordings', added);

      const server = fakeServer(keys);
      const result = await finish(importIntoVault(recordingsZip()(), { ...server.deps, sendRecording: overFetch }));
      expect(result).toMatchObject({ status: 'done', imported: 2, error: null });
      // 3 s as asked, then the backoff's second wait after fetch failed.
      expect(waits(tries)).toEqual([3_000, 2_000, 0, 0]);
      expect(api.requestsTo(route)).toHaveLength(5);
    });

    it('stops the import after five failures, with the failure’s message as before', async () => {
      const server = fakeServer(keys);
      const failures = Array.from({ length: 5 }, () => answer(503, 'Service unavailable'));
      const upload = flaky(failures, server.deps.sendRecording);
      const result = await finish(importIntoVault(recordingsZip()(), { ...server.deps, sendRecording: upload.send }));
      expect(result).toMatchObject({ status: 'failed', error: 'Service unavailable' });
      expect(waits(upload.tries)).toEqual([1_000, 2_000, 4_000, 8_000]);
      expect(server.sent.recordings).toEqual([]);
    });

    it('tries an entries batch again after a 502, and the journal gets each entry once', async () => {
      const server = fakeServer(keys);
      const batch = flaky([answer(502, 'Bad gateway'), new NetworkError()], server.deps.sendEntries);
      const result = await finish(importIntoVault(readImportFile(fixture('jrnl/default-timeformat.txt'), { timeZone: 'UTC', now: NOW }), { ...server.deps, sendEntries: batch.send }));
      expect(result).toMatchObject({ status: 'done', imported: 9, skipped: 0 });
      expect(waits(batch.tries)).toEqual([1_000, 2_000]);
      expect(server.seen.size).toBe(9);
    });

    it('tries a photo upload again only on an answer that says nothing was written (no doubled photos)', async () => {
      const withPhotos = photosZip();

      // A rate limit and a database away are tried again; a 500 may have written the photos: it stops the import.
      const server = fakeServer(keys);
      const photos = flaky([answer(429, 'Too many requests'), answer(503, 'Service unavailable')], server.deps.sendPhotos);
      const upload = async (entryId: string, form: FormData) => {
        if (entryId === 'entry-4') throw answer(500, 'Something went wrong');
        return photos.send(entryId, form);
      };
      const calls = vi.fn(upload);
      const result = await finish(importIntoVault(withPhotos(), { ...server.deps, sendPhotos: calls }));
      expect(result).toMatchObject({ status: 'failed', imported: 4, photos_imported: 1, error: 'Something went wrong' });
      expect(calls.mock.calls.map(([entryId]) => entryId)).toEqual(['entry-3', 'entry-3', 'entry-3', 'entry-4']);
      expect(waits(photos.tries)).toEqual([1_000, 2_000]);
      expect(server.sent.photos.map((p) => p.entryId)).toEqual(['entry-3']);

      // No answer at all: the photos may be in, so the import stops at once.
      const offline = fakeServer(keys);
      const once = vi.fn(() => Promise.reject(new NetworkError()));
      expect(await finish(importIntoVault(withPhotos(), { ...offline.deps, sendPhotos: once }))).toMatchObject({ status: 'failed', error: messages.importer.failed });
      expect(once).toHaveBeenCalledTimes(1);
    });

    it('brings, when the file is imported again, the photos of an entry an interrupted import did not send, and never any twice', async () => {
      const read = photosZip();
      const first = fakeServer(keys);
      // The second entry's photos fail in a way not tried again (a 500 may have written them; here it did not).
      const sendPhotos: VaultImportDeps['sendPhotos'] = (entryId, form) => (entryId === 'entry-4' ? Promise.reject(answer(500, 'Something went wrong')) : first.deps.sendPhotos(entryId, form));
      expect(await finish(importIntoVault(read(), { ...first.deps, sendPhotos }))).toMatchObject({ status: 'failed', photos_imported: 1 });
      expect(first.sent.photos.map((p) => p.entryId)).toEqual(['entry-3']);

      const again = fakeServer(keys, first);
      const result = await finish(importIntoVault(read(), again.deps));
      expect(result).toMatchObject({ status: 'done', imported: 0, skipped: 4, photos_imported: 1, error: null });
      // Only the entry without photos gets them; the one that has its photo is not sent it again.
      expect(again.sent.photos.map((p) => p.entryId)).toEqual(['entry-4']);
      expect(new TextDecoder().decode(await openFile(keys, new Uint8Array(await (again.sent.photos[0]!.form.getAll('photos')[0] as Blob).arrayBuffer())))).toBe('weir-jpeg');

      const third = fakeServer(keys, again);
      expect(await finish(importIntoVault(read(), third.deps))).toMatchObject({ status: 'done', imported: 0, photos_imported: 0 });
      expect(third.sent.photos).toEqual([]);
    });

    it('ends a wait at once when the import is stopped', async () => {
      const server = fakeServer(keys);
      const upload = flaky([answer(503, 'Service unavailable')], server.deps.sendRecording);
      const stop = new AbortController();
      const outcome = importIntoVault(recordingsZip()(), { ...server.deps, sendRecording: upload.send, signal: stop.signal }).catch((error: unknown) => error);
      while (upload.tries.length === 0) await vi.advanceTimersByTimeAsync(10);
      stop.abort();
      // The clock stands still here: the import ends without its second wait running out.
      expect(await outcome).toMatchObject({ name: 'AbortError' });
      expect(upload.tries).toHaveLength(1);
    });

    it('brings, when the file is imported again, the recordings an interrupted import did not send, to the entries it made', async () => {
      const read = recordingsZip();
      const first = fakeServer(keys);
      // The second recording of the first entry fails in a way not tried again: the rest of the batch's recordings are not sent.
      let calls = 0;
      const sendRecording: VaultImportDeps['sendRecording'] = (entryId, form) => (++calls === 2 ? Promise.reject(answer(500, 'Something went wrong')) : first.deps.sendRecording(entryId, form));
      const interrupted = await finish(importIntoVault(read(), { ...first.deps, sendRecording }));
      expect(interrupted).toMatchObject({ status: 'failed', error: 'Something went wrong' });
      expect(first.sent.recordings.map(({ entryId }) => entryId)).toEqual(['entry-1']);

      const again = fakeServer(keys, first);
      const result = await finish(importIntoVault(read(), again.deps));
      // The entries count as found already; the recording that came in before is there, and is not added twice.
      expect(result).toMatchObject({ status: 'done', total: 2, imported: 0, skipped: 2, photos_imported: 0, error: null });
      expect(result.reasons).toEqual([{ reason: 'already_imported', count: 2, examples: expect.any(Array) }]);
      // Only those the entries do not hold yet are sent (the server names the ones they hold).
      expect(again.sent.recordings.map(({ entryId, added }) => [entryId, added])).toEqual([
        ['entry-1', true],
        ['entry-1', true],
        ['entry-2', true],
      ]);
      const heard = await Promise.all(again.sent.recordings.map(async ({ form }) => new TextDecoder().decode(await (form.get('file') as Blob).arrayBuffer())));
      expect(heard).toEqual(['audio: b', 'audio: c', 'audio: d']);
      expect(again.sent.entries).toHaveLength(2);
      expect(first.stored.size).toBe(4);
    });

    it('sends no recordings to an entry of our own export that the journal still has: they are its own already', async () => {
      const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
      const journal = {
        metadata: { version: '1.0' },
        entries: [
          {
            uuid: '0F8FAD5BD9CB469FA16570867728950E',
            creationDate: '2024-05-01T07:00:00Z',
            timeZone: 'Europe/London',
            text: 'By the weir',
            audios: [{ identifier: '7C9E6679742540DE944BE07FC1F90AE7', md5: 'a'.repeat(32), format: 'm4a' }],
            jotline: { id, entry_date: '2024-05-01', source: 'web', created_at: '2024-05-01T07:00:00.000Z', updated_at: '2024-05-01T07:00:00.000Z' },
          },
        ],
      };
      const zip = zipSync({ 'Journal.json': new TextEncoder().encode(JSON.stringify(journal)), [`audios/${'a'.repeat(32)}.m4a`]: new TextEncoder().encode('audio: a') });
      const server = fakeServer(keys, { own: new Set([id]) });
      const result = await finish(importIntoVault(readImportFile(zip, { timeZone: 'Europe/London', now: NOW }), server.deps));
      expect(result).toMatchObject({ status: 'done', imported: 0, skipped: 1 });
      expect(server.sent.recordings).toEqual([]);
    });
  });
});
