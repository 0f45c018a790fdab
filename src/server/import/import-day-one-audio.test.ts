import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { buildTestApp, type TestApp } from '../test/app';
import { testAudio } from '../test/audio';
import { importFile, importStatus, md5, postImport } from '../test/import';
import { journalUser, listEntries, type JournalTestUser } from '../test/journal';
import { importsSettled, runImports, STALE_CLAIM_MS } from './runner';

// A Day One ZIP's voice recordings (audios/MD5.FORMAT, named in each entry's `audios`) come into the
// journal as its voice notes: decoded, kept with their entry, their transcripts with them.

const MISSING_MD5 = 'f'.repeat(32);

describe('importing the voice recordings of a Day One ZIP', () => {
  let t: TestApp;
  let audio: { ferry: Buffer; rain: Buffer; wav: Buffer; alone: Buffer; tooLong: Buffer; notAudio: Buffer };
  let journal: string;
  let zip: Buffer;
  beforeAll(async () => {
    // Voice notes up to 10 seconds here, so a longer one is quick to make.
    t = await buildTestApp({ VOICE_MAX_SECONDS: '10' });
    t.clock.set(new Date('2026-01-10T12:00:00Z'));
    audio = {
      ferry: await testAudio('m4a', 3),
      rain: await testAudio('m4a', 4),
      wav: await testAudio('wav-mulaw', 2),
      alone: await testAudio('mp3', 5),
      tooLong: await testAudio('aac', 12),
      notAudio: Buffer.from('Not a recording at all. '.repeat(40)),
    };
    const entries = [
      {
        uuid: 'FERRY',
        creationDate: '2025-06-01T10:00:00Z',
        modifiedDate: '2025-06-01T10:05:00Z',
        timeZone: 'Australia/Sydney',
        text: 'On the ferry to Manly\\.\n\n![](dayone-moment:/audio/A1)',
        audios: [
          // Day One names the codec; the file is an .m4a.
          { identifier: 'A1', md5: md5(audio.ferry), format: 'aac', duration: 3, date: '2025-06-01T09:58:00Z', transcription: 'Gulls everywhere, and a whale!' },
          { identifier: 'A2', md5: md5(audio.wav), format: 'wav', duration: 2 },
        ],
      },
      {
        // Our own export's way: the transcript is in the text as well.
        uuid: 'RAIN',
        creationDate: '2025-06-02T08:00:00Z',
        timeZone: 'Australia/Sydney',
        text: 'Walked home\\.\n\nIt rained all the way\\.',
        audios: [{ identifier: 'B1', md5: md5(audio.rain), format: 'm4a', transcription: 'It rained all the way.' }],
      },
      { uuid: 'ALONE', creationDate: '2025-06-03T08:00:00Z', timeZone: 'Australia/Sydney', text: '', audios: [{ identifier: 'C1', md5: md5(audio.alone), format: 'mp3' }] },
      {
        uuid: 'ZOO',
        creationDate: '2025-06-04T08:00:00Z',
        timeZone: 'Australia/Sydney',
        text: 'Problems at the zoo',
        audios: [
          { identifier: 'D1', md5: MISSING_MD5, format: 'm4a' },
          { identifier: 'D2', md5: md5(audio.notAudio), format: 'm4a' },
          { identifier: 'D3', md5: md5(audio.tooLong), format: 'aac' },
        ],
      },
    ];
    journal = JSON.stringify({ metadata: { version: '1.0' }, entries });
    const files: Record<string, Uint8Array> = { 'Journal.json': new TextEncoder().encode(journal) };
    for (const [bytes, name] of [
      [audio.ferry, 'm4a'],
      [audio.rain, 'm4a'],
      [audio.wav, 'wav'],
      [audio.alone, 'mp3'],
      [audio.notAudio, 'm4a'],
      [audio.tooLong, 'm4a'],
    ] as const) {
      files[`audios/${md5(bytes)}.${name}`] = new Uint8Array(bytes);
    }
    zip = Buffer.from(zipSync(files));
  });
  afterAll(() => t.close());

  const entriesOf = async (user: JournalTestUser) => (await listEntries(t, user, '?limit=100')).entries;
  const byText = (entries: JournalEntry[], start: string) => entries.find((e) => e.content.startsWith(start))!;
  const served = async (url: string) => (await t.app.inject({ method: 'GET', url })).rawPayload;
  const expectedReasons = () => [
    { reason: 'audio_missing', count: 1, examples: [`${MISSING_MD5}.m4a (2025-06-04)`] },
    { reason: 'audio_unreadable', count: 1, examples: [`${md5(audio.notAudio)}.m4a (2025-06-04)`] },
    { reason: 'audio_over_limit', count: 1, examples: [`${md5(audio.tooLong)}.m4a (2025-06-04)`] },
  ];

  it('adds each recording to its entry, with its length, its audio as it was and its transcript said once; none twice', async () => {
    const user = await journalUser(t);
    const result = await importFile(t, user.headers, zip, 'Manly.zip');
    expect(result).toMatchObject({ status: 'done', total: 4, imported: 4, skipped: 0 });
    expect(result.reasons).toEqual(expectedReasons());
    expect(messages.importer.reasons.audio_missing(2)).toBe('2 voice recordings were not in the ZIP file');

    const entries = await entriesOf(user);
    const ferry = byText(entries, 'On the ferry');
    // Day One's transcript joins the text, once; the entry keeps the time the file gives it.
    expect([ferry.content, ferry.updated_at, ferry.word_count]).toEqual(['On the ferry to Manly.\n\nGulls everywhere, and a whale!', '2025-06-01T10:05:00.000Z', 10]);
    expect(ferry.recordings!.map((r) => [r.mime_type, Math.round(r.duration_seconds), r.transcript, r.transcript_status])).toEqual([
      ['audio/mp4', 3, 'Gulls everywhere, and a whale!', 'done'],
      // No transcript in the file and no transcription service here: kept, "Not transcribed".
      ['audio/wav', 2, null, 'failed'],
    ]);
    expect((await served(ferry.recordings![0]!.url)).equals(audio.ferry)).toBe(true);
    expect((await served(ferry.recordings![1]!.url)).equals(audio.wav)).toBe(true);

    // A transcript the text holds already is not added to it again.
    const rain = byText(entries, 'Walked home');
    expect(rain.content).toBe('Walked home.\n\nIt rained all the way.');
    expect(rain.recordings!.map((r) => [Math.round(r.duration_seconds), r.transcript, r.transcript_status])).toEqual([[4, 'It rained all the way.', 'done']]);

    // An entry that is only a recording comes in for it.
    const alone = entries.find((e) => e.entry_date === '2025-06-03')!;
    expect([alone.title, alone.content, alone.recordings!.map((r) => r.mime_type)]).toEqual([null, '', ['audio/mpeg']]);
    expect((await served(alone.recordings![0]!.url)).equals(audio.alone)).toBe(true);

    // Its recordings missing, not audio or too long: the entry's words come in all the same.
    expect(byText(entries, 'Problems at the zoo').recordings).toEqual([]);

    // The same ZIP again adds no recording twice.
    const again = await importFile(t, user.headers, zip, 'Manly.zip');
    expect(again).toMatchObject({ status: 'done', imported: 0, skipped: 4 });
    expect(again.reasons).toEqual([expect.objectContaining({ reason: 'already_imported', count: 4 }), ...expectedReasons()]);
    expect((await entriesOf(user)).map((e) => [e.content, e.recordings!.map((r) => r.id)])).toEqual(entries.map((e) => [e.content, e.recordings!.map((r) => r.id)]));
  });

  it('names the recordings of a Journal.json alone, and adds them when its ZIP follows', async () => {
    const user = await journalUser(t);
    const json = await importFile(t, user.headers, Buffer.from(journal), 'Journal.json');
    // The entry that is only a recording has nothing to show without it.
    expect(json).toMatchObject({ status: 'done', imported: 3, skipped: 1 });
    expect(json.reasons.map((r) => [r.reason, r.count])).toEqual([
      ['empty', 1],
      ['audio_not_in_file', 7],
    ]);
    expect(messages.importer.reasons.audio_not_in_file(7)).toBe('7 voice recordings are only in the ZIP export: import the ZIP to bring them in');

    const zipped = await importFile(t, user.headers, zip, 'Manly.zip');
    expect(zipped).toMatchObject({ status: 'done', imported: 1, skipped: 3 });
    const entries = await entriesOf(user);
    expect(entries).toHaveLength(4);
    const ferry = byText(entries, 'On the ferry');
    expect(ferry.content).toBe('On the ferry to Manly.\n\nGulls everywhere, and a whale!');
    expect(ferry.recordings!.map((r) => r.mime_type)).toEqual(['audio/mp4', 'audio/wav']);
    expect(byText(entries, 'Walked home').recordings).toHaveLength(1);
    expect(entries.find((e) => e.entry_date === '2025-06-03')!.recordings).toHaveLength(1);
  });

  it('goes on after a stop while a chunk’s recordings were being added: the rest come in, none twice, no entry counted again', async () => {
    const user = await journalUser(t);
    const storage = t.app.ctx.storage;
    let failed = false;
    t.app.ctx.storage = {
      ...storage,
      async put(key, body, type) {
        // The chunk's entries are in, and the first recording; the disk fills as the second is stored.
        if (!failed && key.endsWith('.wav')) {
          failed = true;
          throw new Error('disk full');
        }
        await storage.put(key, body, type);
      },
    };
    let id: string;
    try {
      const res = await postImport(t, user.headers, zip, 'Manly.zip');
      id = res.json().import_id;
      await importsSettled(t.app.ctx);
    } finally {
      t.app.ctx.storage = storage;
    }
    // Left claimed, as after a crash, with its entries written and the chunk to be read again.
    const stopped = await t.app.ctx.db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stopped).toMatchObject({ status: 'running', position: 4, imported: 4, audios_from: 0 });
    expect(byText(await entriesOf(user), 'On the ferry').recordings).toHaveLength(1);

    t.clock.advance(STALE_CLAIM_MS + 1_000);
    await runImports(t.app.ctx);
    await importsSettled(t.app.ctx);
    const result = await importStatus(t, user.headers, id);
    expect(result).toMatchObject({ status: 'done', total: 4, imported: 4, skipped: 0 });
    expect(result.reasons).toEqual(expectedReasons());
    const entries = await entriesOf(user);
    expect(entries).toHaveLength(4);
    const ferry = byText(entries, 'On the ferry');
    expect(ferry.content).toBe('On the ferry to Manly.\n\nGulls everywhere, and a whale!');
    expect(ferry.recordings!.map((r) => r.mime_type)).toEqual(['audio/mp4', 'audio/wav']);
    expect(entries.reduce((n, e) => n + e.recordings!.length, 0)).toBe(4);
    expect(await t.app.ctx.db.selectFrom('import_jobs').select('audios_from').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ audios_from: null });
  });
});
