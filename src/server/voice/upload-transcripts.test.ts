import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryRecording, JournalEntry } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { SealedImportResult } from '../../shared/vault-import';
import { voiceMessages } from '../../shared/voice-messages';
// The browser's import code, run against the server: the promise spans both sides.
// eslint-disable-next-line no-restricted-imports -- a test across the boundary, not server code
import { apiErrorFrom } from '../../web/api/errors';
// eslint-disable-next-line no-restricted-imports -- a test across the boundary, not server code
import { readImportFile } from '../../web/features/vault/import/read-file';
// eslint-disable-next-line no-restricted-imports -- a test across the boundary, not server code
import { importIntoVault } from '../../web/features/vault/import/vault-import';
import { decryptPhotoBytes } from '../at-rest/photo-files';
import { isVaultFile } from '../crypto/sealed-box';
import { ownerSalt } from '../journal/owner';
import { hit, rateLimitKey } from '../rate-limit';
import { buildTestApp, type TestApp } from '../test/app';
import { testAudio } from '../test/audio';
import { FAKE_TRANSCRIBE_KEY, startFakeTranscriber, type FakeTranscriber } from '../test/fake-transcriber';
import { createEntry, journalUser, listEntries, multipart, type JournalTestUser } from '../test/journal';
import { browserKeys, sealedWrite, sealJournal, turnOn, vaultRequest, type BrowserKeys } from '../test/vault';
import { findRecording, listRecordings } from './repo';
import { heardInMemory } from './transcription/in-memory';

// POST /api/entries/:id/recordings with the words a recording already has (an import's: Day One's
// transcription): `transcript`, `transcript_in_text` (the entry's text holds them already) and
// `source_key` (`import:…`, added once). With a transcript the audio is not sent to be transcribed;
// a Vault user's import, read in the browser, brings its recordings in this way.

type Fields = Record<string, string>;

async function upload(t: TestApp, user: JournalTestUser, entryId: string, fields: Fields, audio: Buffer) {
  const form = await multipart(fields, [{ name: 'note.ogg', bytes: audio, type: 'audio/ogg' }], 'file');
  return t.app.inject({ method: 'POST', url: `/api/entries/${entryId}/recordings`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
}

const entryOf = async (t: TestApp, user: JournalTestUser, entryId: string): Promise<JournalEntry & { sealed?: string[] }> => {
  const entry = (await listEntries(t, user)).entries.find((e) => e.id === entryId);
  if (!entry) throw new Error('entry not listed');
  return entry;
};

async function withTranscriber(): Promise<{ t: TestApp; fake: FakeTranscriber; close(): Promise<void> }> {
  const fake = await startFakeTranscriber();
  const t = await buildTestApp({ TRANSCRIBE_URL: fake.url, TRANSCRIBE_API_KEY: FAKE_TRANSCRIBE_KEY });
  t.clock.set(new Date('2026-11-20T15:00:00Z'));
  const close = async () => {
    await t.close();
    await fake.close();
  };
  return { t, fake, close };
}

describe('a voice note uploaded with the words it already has', () => {
  let t: TestApp;
  let fake: FakeTranscriber;
  let close: () => Promise<void>;
  let alice: JournalTestUser;
  let audio: Buffer;
  beforeAll(async () => {
    ({ t, fake, close } = await withTranscriber());
    alice = await journalUser(t);
    audio = await testAudio('ogg-opus', 1);
  });
  afterAll(() => close());

  it('keeps the transcript given, adds it to the entry once, and sends nothing to be transcribed', async () => {
    const entry = await createEntry(t, alice, { content: 'Morning pages\n\nThe heron was back on the weir.' });
    const inText = await upload(t, alice, entry.id, { transcript: 'The heron was back on the weir.', transcript_in_text: 'true' }, audio);
    expect(inText.statusCode).toBe(201);
    expect((inText.json() as { recording: EntryRecording }).recording).toMatchObject({ transcript: 'The heron was back on the weir.', transcript_status: 'done' });
    expect((await upload(t, alice, entry.id, { transcript: 'Then rain.' }, audio)).statusCode).toBe(201);
    expect((await upload(t, alice, entry.id, { transcript: ' Then sun.\r\n', transcript_in_text: 'false' }, audio)).statusCode).toBe(201);

    const after = await entryOf(t, alice, entry.id);
    expect(after.content).toBe('Morning pages\n\nThe heron was back on the weir.\n\nThen rain.\n\nThen sun.');
    expect(after.recordings!.map((r) => [r.transcript, r.transcript_status])).toEqual([
      ['The heron was back on the weir.', 'done'],
      ['Then rain.', 'done'],
      ['Then sun.', 'done'],
    ]);
    // Kept encrypted like entry text, and found by search.
    expect((await findRecording(t.app.ctx.db, alice.id, after.recordings![1]!.id))!.transcript).toMatch(/^ENC:/);
    expect((await listEntries(t, alice, '?q=heron')).entries.map((e) => e.id)).toEqual([entry.id]);
    // Nothing was sent to be heard, and nothing waits for the transcription job (each is done).
    expect(fake.requests).toHaveLength(0);
    // Without a transcript, the same upload is to be transcribed.
    const plain = (await upload(t, alice, entry.id, {}, audio)).json() as { recording: EntryRecording };
    expect(plain.recording.transcript_status).toBe('pending');
    // Removed, so no transcription job (of any test sharing the database) meets it.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}/recordings/${plain.recording.id}`, headers: alice.headers })).statusCode).toBe(204);
  });

  it('adds an import’s recording once by its source key, leaving the entry’s time as the file gave it', async () => {
    const entry = await createEntry(t, alice, { content: 'Picnic by the lake' });
    const { updated_at: before } = await entryOf(t, alice, entry.id);
    t.clock.set(new Date('2026-11-20T15:05:00Z'));
    const fields = { transcript: 'Ducks everywhere.', transcript_in_text: 'false', source_key: 'import:5F0C2B7E:4F50' };
    const first = await upload(t, alice, entry.id, fields, audio);
    expect(first.statusCode).toBe(201);
    const again = await upload(t, alice, entry.id, fields, audio);
    expect(again.statusCode).toBe(200);
    const { recording } = first.json() as { recording: EntryRecording };
    expect((again.json() as { recording: EntryRecording }).recording.id).toBe(recording.id);

    const after = await entryOf(t, alice, entry.id);
    expect(after.recordings!.map((r) => r.id)).toEqual([recording.id]);
    expect(after.content).toBe('Picnic by the lake\n\nDucks everywhere.');
    expect(after.updated_at).toBe(before);
    expect(await findRecording(t.app.ctx.db, alice.id, recording.id)).toMatchObject({ origin: 'import', source_key: 'import:5F0C2B7E:4F50' });
  });

  it('takes a transcript as long as an entry’s text, and refuses fields it cannot take with what is wrong', async () => {
    const entry = await createEntry(t, alice, { content: 'Fields' });
    // 10,000 characters of two bytes each.
    const longest = await upload(t, alice, entry.id, { transcript: 'ü'.repeat(10_000), transcript_in_text: 'true' }, audio);
    expect(longest.statusCode).toBe(201);
    expect((longest.json() as { recording: EntryRecording }).recording.transcript).toHaveLength(10_000);

    const refused = async (fields: Fields, message: string) => {
      const res = await upload(t, alice, entry.id, fields, audio);
      expect([res.statusCode, res.json().error.message]).toEqual([400, message]);
    };
    await refused({ transcript: 'x'.repeat(10_001) }, voiceMessages.errors.transcriptTooLong);
    await refused({ transcript: 'x'.repeat(50_000) }, voiceMessages.errors.transcriptTooLong);
    await refused({ transcript: 'Words', transcript_in_text: 'yes' }, voiceMessages.errors.transcriptInTextInvalid);
    await refused({ transcript_in_text: 'true' }, voiceMessages.errors.transcriptInTextAlone);
    await refused({ source_key: 'call:RE0001' }, voiceMessages.errors.sourceKeyInvalid);
    await refused({ source_key: 'import:' }, voiceMessages.errors.sourceKeyInvalid);
    await refused({ source_key: `import:${'a'.repeat(200)}` }, voiceMessages.errors.sourceKeyInvalid);
    const twice = await multipart({ transcript: ['One', 'Two'] }, [{ name: 'note.ogg', bytes: audio, type: 'audio/ogg' }], 'file');
    const res = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/recordings`, headers: { ...alice.headers, ...twice.headers }, payload: twice.payload });
    expect([res.statusCode, res.json().error.message]).toEqual([400, voiceMessages.errors.fieldTwice('transcript')]);
    // The fields come first: the server reads them before the audio.
    const late = new FormData();
    late.append('file', new Blob([new Uint8Array(audio)], { type: 'audio/ogg' }), 'note.ogg');
    late.append('transcript', 'Too late');
    const body = new Response(late);
    const lateRes = await t.app.inject({
      method: 'POST',
      url: `/api/entries/${entry.id}/recordings`,
      headers: { ...alice.headers, 'content-type': body.headers.get('content-type')! },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect([lateRes.statusCode, lateRes.json().error.message]).toEqual([400, voiceMessages.errors.fieldsAfterFile]);
    expect((await entryOf(t, alice, entry.id)).recordings).toHaveLength(1);
  });

  it('counts an import’s uploads apart from the voice notes added by hand', async () => {
    const bob = await journalUser(t);
    const entry = await createEntry(t, bob, { content: 'A long journal' });
    // An hour's voice notes added by hand.
    for (let i = 0; i < 60; i++) await hit(t.app.ctx, rateLimitKey('voice-upload', bob.id), { limit: 60, windowMs: 60 * 60 * 1000 });
    const byHand = await upload(t, bob, entry.id, {}, audio);
    expect([byHand.statusCode, byHand.json().error.message]).toEqual([429, messages.generic.rateLimited]);
    expect((await upload(t, bob, entry.id, { transcript: 'Imported words.', source_key: 'import:E1:A1' }, audio)).statusCode).toBe(201);
  });
});

describe("a Vault user's upload with the words it already has", () => {
  let t: TestApp;
  let fake: FakeTranscriber;
  let close: () => Promise<void>;
  let alice: JournalTestUser;
  let keys: BrowserKeys;
  beforeAll(async () => {
    ({ t, fake, close } = await withTranscriber());
    alice = await journalUser(t);
    keys = await browserKeys();
    await turnOn(t, alice, keys);
    await sealJournal(t, alice);
  });
  afterAll(() => close());

  it('seals the audio and the transcript, adds the words to the sealed entry once, and has nothing heard', async () => {
    const at = '2026-11-19T08:00:00.000Z';
    const sealed = await sealedWrite(keys, { text: 'Notes from the garden. Plant the beans early.', at, source: 'web' });
    const imported = await vaultRequest(t, alice, 'POST', '/api/vault/imported', {
      entries: [{ import_key: randomBytes(32).toString('base64url'), entry_date: '2026-11-19', created_at: at, time_zone: 'UTC', source: 'web', word_count: 8, sealed: [sealed] }],
    });
    const entryId = (imported.json() as SealedImportResult).entries[0]!.id;
    const audio = await testAudio('m4a', 1);
    const first = await upload(t, alice, entryId, { transcript: 'Plant the beans early.', transcript_in_text: 'true', source_key: 'import:vault-1' }, audio);
    expect(first.statusCode).toBe(201);
    const second = await upload(t, alice, entryId, { transcript: 'Water them at dusk.', source_key: 'import:vault-2' }, audio);
    expect(second.statusCode).toBe(201);
    await heardInMemory(t.app.ctx);
    expect(fake.requests).toHaveLength(0);

    const entry = await entryOf(t, alice, entryId);
    expect(entry.content).toBeNull();
    expect(entry.sealed!.map((s) => keys.openSegment(s).text)).toEqual(['Notes from the garden. Plant the beans early.', 'Water them at dusk.']);
    expect(entry.recordings!.map((r) => [r.transcript, r.transcript_status, JSON.parse(keys.open(r.sealed!))])).toEqual([
      [null, 'done', { transcript: 'Plant the beans early.' }],
      [null, 'done', { transcript: 'Water them at dusk.' }],
    ]);
    const served = await t.app.inject({ method: 'GET', url: entry.recordings![1]!.url });
    expect(keys.openFile(served.rawPayload).equals(audio)).toBe(true);

    // What the server keeps opens with none of its keys: the stored files and the rows.
    const ctx = t.app.ctx;
    const salt = await ownerSalt(ctx, alice.id);
    for (const recording of entry.recordings!) {
      const row = (await findRecording(ctx.db, alice.id, recording.id))!;
      const stored = readFileSync(join(ctx.config.storageUrl, row.file_path));
      expect(isVaultFile(stored)).toBe(true);
      expect(stored.includes(audio.subarray(200, 264))).toBe(false);
      expect(decryptPhotoBytes(ctx, alice.id, salt, stored).equals(stored)).toBe(true);
      expect(row.sealed).toBe(1);
      expect(ctx.cipher.decrypt(alice.id, salt, row.transcript!)).toBe(row.transcript);
    }
    const rows = JSON.stringify([await listRecordings(ctx.db, alice.id), await ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', alice.id).execute()]);
    expect(rows).not.toMatch(/beans|dusk/);
    if (ctx.dbKind === 'sqlite') {
      const file = ctx.config.databaseUrl.slice('sqlite:'.length);
      const read = (path: string) => {
        try {
          return readFileSync(path).toString('latin1');
        } catch {
          return '';
        }
      };
      expect(read(file) + read(`${file}-wal`)).not.toContain('at dusk');
    }
  });

  it('brings a Day One ZIP’s recordings in through the browser’s import, once however often it is imported', async () => {
    const bob = await journalUser(t, { timezone: 'Europe/London' });
    const bobKeys = await browserKeys();
    await turnOn(t, bob, bobKeys);
    await sealJournal(t, bob);
    const [heron, rain] = await Promise.all([testAudio('m4a', 1), testAudio('mp3', 1)]);
    const md5 = (c: string) => c.repeat(32);
    const journal = {
      metadata: { version: '1.0' },
      entries: [
        {
          uuid: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
          creationDate: '2024-05-01T07:00:00Z',
          timeZone: 'Europe/London',
          text: '# By the weir\n\nWe saw the heron.',
          audios: [{ identifier: 'AUDIO1', md5: md5('a'), format: 'm4a', duration: 1, transcription: 'We saw the heron.' }],
        },
        {
          uuid: 'B1B2C3D4E5F60718293A4B5C6D7E8F90',
          creationDate: '2024-05-02T07:00:00Z',
          timeZone: 'Europe/London',
          text: 'Walk home',
          audios: [
            { identifier: 'AUDIO2', md5: md5('b'), format: 'mp3', duration: 1, transcription: 'It started to rain.', orderInEntry: 0 },
            { identifier: 'AUDIO3', md5: md5('c'), format: 'm4a', duration: 1, orderInEntry: 1 },
            { identifier: 'AUDIO4', md5: md5('d'), format: 'm4a', duration: 1, orderInEntry: 2 },
          ],
        },
      ],
    };
    const zip = zipSync({
      'Journal.json': new TextEncoder().encode(JSON.stringify(journal)),
      [`audios/${md5('a')}.m4a`]: new Uint8Array(heron),
      [`audios/${md5('b')}.mp3`]: new Uint8Array(rain),
      // Not audio; and AUDIO4's file is missing.
      [`audios/${md5('c')}.m4a`]: new TextEncoder().encode('only words, no sound'.repeat(20)),
    });

    const send = async (method: 'POST', url: string, form: FormData) => {
      const body = new Response(form);
      const res = await t.app.inject({ method, url, headers: { ...bob.headers, 'content-type': body.headers.get('content-type')! }, payload: Buffer.from(await body.arrayBuffer()) });
      if (res.statusCode >= 300) throw apiErrorFrom(res.statusCode, res.json());
      return res.json() as unknown;
    };
    let recordingPosts = 0;
    const importOnce = () =>
      importIntoVault(readImportFile(zip, { timeZone: 'Europe/London', now: new Date('2026-11-20T15:00:00Z') }), {
        keys: { publicKey: new Uint8Array(Buffer.from(bobKeys.publicKey, 'base64')), privateKey: bobKeys.privateKey },
        preparePhoto: () => Promise.reject(new Error('no photos in this file')),
        sendEntries: async (entries) => (await vaultRequest(t, bob, 'POST', '/api/vault/imported', { entries })).json() as SealedImportResult,
        sendPhotos: () => Promise.reject(new Error('no photos in this file')),
        sendRecording: (entryId, form) => {
          recordingPosts += 1;
          return send('POST', `/api/entries/${entryId}/recordings`, form);
        },
      });

    const result = await importOnce();
    expect(result).toMatchObject({ status: 'done', total: 2, imported: 2, skipped: 0 });
    expect(result.reasons).toEqual([
      { reason: 'audio_missing', count: 1, examples: [`${md5('d')}.m4a (2024-05-02)`] },
      { reason: 'audio_unreadable', count: 1, examples: [`${md5('c')}.m4a (2024-05-02)`] },
    ]);
    await heardInMemory(t.app.ctx);
    expect(fake.requests).toHaveLength(0);

    const { entries } = await listEntries(t, bob);
    const opened = entries.map((e) => ({
      text: (e as JournalEntry & { sealed: string[] }).sealed.map((s) => bobKeys.openSegment(s).text),
      recordings: e.recordings!.map((r) => [r.mime_type, JSON.parse(bobKeys.open(r.sealed!)).transcript]),
    }));
    expect(opened.sort((a, b) => a.text[0]!.localeCompare(b.text[0]!))).toEqual([
      { text: ['Walk home', 'It started to rain.'], recordings: [['audio/mpeg', 'It started to rain.']] },
      // The heron's words were in the entry's text already: not added again.
      { text: ['We saw the heron.'], recordings: [['audio/mp4', 'We saw the heron.']] },
    ]);
    // Day One's identities do not reach the server: the source keys are hashed in the browser.
    const rows = await listRecordings(t.app.ctx.db, bob.id);
    expect(rows.map((r) => [r.origin, r.source_key?.startsWith('import:')])).toEqual([
      ['import', true],
      ['import', true],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/A1B2C3D4|AUDIO1/i);

    recordingPosts = 0;
    const again = await importOnce();
    expect(again).toMatchObject({ status: 'done', imported: 0, skipped: 2 });
    expect(await listRecordings(t.app.ctx.db, bob.id)).toHaveLength(2);
    // The server named the recordings each entry holds: only the one it refused is sent again.
    expect(recordingPosts).toBe(1);
  });
});
