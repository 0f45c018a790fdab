import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amrNb, testAudio } from '../test/audio';
import { bearer, buildUser, signIn } from '../test/factories';
import { testImage } from '../test/journal';
import { buildSmsTestApp, inboundRow, journalOf, startFakeTwilio, textJournal, type FakeTwilio, type SmsTestApp, withTwilioApp } from '../test/sms';
import { FAKE_TRANSCRIBE_KEY, startFakeTranscriber, type FakeTranscriber } from '../test/fake-transcriber';
import { browserKeys, sealJournal, turnOn } from '../test/vault';
import { isVoiceMedia } from './mms';
import { heardInMemory } from './transcription/in-memory';

// A voice note by MMS becomes a recording of the day's phone entry; a photo in the same text stays
// a photo, and a text processed again adds nothing.

interface MediaHost {
  url(path: string): string;
  close(): Promise<void>;
}

/** Where a text's media live: `/note.3gp` a voice note, `/movie.3gp` a 3GP with video, `/photo.png` a photo. */
async function startMediaHost(): Promise<MediaHost> {
  const files: Record<string, { bytes: Buffer; type: string }> = {
    '/note.3gp': { bytes: await testAudio('3gp', 2), type: 'audio/3gpp' },
    '/note.m4a': { bytes: await testAudio('m4a', 3), type: 'audio/mp4' },
    // An Android phone's memo: AMR-NB, 1.5 s of talk and then a pause of comfort noise.
    '/note.amr': { bytes: amrNb(4, 1.5), type: 'audio/amr' },
    '/movie.3gp': { bytes: await testAudio('3gp-video', 2), type: 'video/3gpp' },
    '/photo.png': { bytes: await testImage('png'), type: 'image/png' },
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { url: (path) => `${base}${path}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const mms = (media: Array<[string, string]>): Record<string, string> => {
  const fields: Record<string, string> = { NumMedia: String(media.length) };
  media.forEach(([url, type], i) => {
    fields[`MediaUrl${i}`] = url;
    fields[`MediaContentType${i}`] = type;
  });
  return fields;
};

describe('voice notes by MMS', () => {
  let t: SmsTestApp;
  let host: MediaHost;
  withTwilioApp((app) => ({ t } = app));
  beforeAll(async () => {
    host = await startMediaHost();
  });
  afterAll(() => host.close());

  it('knows audio by its declared type', () => {
    for (const type of ['audio/amr', 'audio/3gpp', 'video/3gpp', 'audio/mp4', 'audio/aac', 'audio/mpeg', 'audio/ogg', 'audio/wav', 'AUDIO/AMR; codecs=x']) expect(isVoiceMedia({ contentType: type }), type).toBe(true);
    for (const type of ['image/jpeg', 'image/png', 'text/vcard', 'video/mp4']) expect(isVoiceMedia({ contentType: type }), type).toBe(false);
  });

  it('adds the audio as a recording and the photo as a photo, to the day entry with the words', async () => {
    const user = await buildUser(t);
    const { sid } = await textJournal(t, user.phone, 'Sunset from the pier', mms([
      [host.url('/note.3gp'), 'audio/3gpp'],
      [host.url('/photo.png'), 'image/png'],
    ]));
    const [entry, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ source: 'sms', content: 'Sunset from the pier' });
    expect(entry!.photos.map((p) => p.mime_type)).toEqual(['image/png']);
    expect(entry!.recordings).toHaveLength(1);
    expect(entry!.recordings![0]).toMatchObject({ mime_type: 'audio/3gpp', transcript: null, transcript_status: 'failed' });
    expect(entry!.recordings![0]!.duration_seconds).toBeCloseTo(2, 0);
    const row = await inboundRow(t, sid);
    expect(row).toMatchObject({ processed: 1, kind: 'journal', entry_id: entry!.id });
    const rows = await t.ctx.db.selectFrom('journal_recordings').select(['source_key', 'origin']).where('user_id', '=', user.id).execute();
    expect(rows).toEqual([{ source_key: `mms:${sid}:0`, origin: 'mms' }]);
  });

  it("takes an Android phone's AMR memo, pause and all", async () => {
    const user = await buildUser(t);
    await textJournal(t, user.phone, 'Said it instead', mms([[host.url('/note.amr'), 'audio/amr']]));
    const [entry] = await journalOf(t, user.id);
    expect(entry!.recordings!.map((r) => [r.mime_type, r.duration_seconds])).toEqual([['audio/amr', 4]]);
  });

  it('takes a voice note alone, leaves out a 3GP with video, and adds nothing when the text is delivered again', async () => {
    const user = await buildUser(t);
    const fields = mms([
      [host.url('/movie.3gp'), 'video/3gpp'],
      [host.url('/note.m4a'), 'audio/mp4'],
    ]);
    const first = await textJournal(t, user.phone, '', fields);
    const [entry, ...others] = await journalOf(t, user.id);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ source: 'sms', content: '', photos: [] });
    expect(entry!.recordings!.map((r) => r.mime_type)).toEqual(['audio/mp4']);
    expect(await inboundRow(t, first.sid)).toMatchObject({ processed: 1, kind: 'journal', entry_id: entry!.id });

    // Twilio delivers the same message again (the same MessageSid).
    await textJournal(t, user.phone, '', { ...fields, MessageSid: first.sid });
    const again = await journalOf(t, user.id);
    expect(again).toHaveLength(1);
    expect(again[0]!.recordings!.map((r) => r.id)).toEqual(entry!.recordings!.map((r) => r.id));
    const count = await t.ctx.db.selectFrom('journal_recordings').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});

describe("a vault user's voice note by MMS while the transcription service hangs", () => {
  let twilio: FakeTwilio;
  let fake: FakeTranscriber;
  let host: MediaHost;
  let t: SmsTestApp;
  beforeAll(async () => {
    [twilio, fake, host] = await Promise.all([startFakeTwilio(), startFakeTranscriber(), startMediaHost()]);
    t = await buildSmsTestApp({ twilio, env: { TRANSCRIBE_URL: fake.url, TRANSCRIBE_API_KEY: FAKE_TRANSCRIBE_KEY, TRANSCRIBE_TIMEOUT_SECONDS: '3' } });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([twilio.close(), fake.close(), host.close()]);
  });

  it("holds up no one's texts: the note is stored sealed at once and heard after, and kept when the try fails", async () => {
    const owner = await buildUser(t);
    const token = await signIn(t, owner);
    const keys = await browserKeys();
    await turnOn(t, { id: owner.id, token, headers: bearer(token) }, keys);
    await sealJournal(t, { id: owner.id, token, headers: bearer(token) });
    const other = await buildUser(t);
    fake.outage({ hang: 'before-headers' });

    const note = await textJournal(t, owner.phone, '', mms([[host.url('/note.m4a'), 'audio/mp4']]));
    // The text is done with while the service has not answered: its note is stored, sealed, to be heard.
    expect(await inboundRow(t, note.sid)).toMatchObject({ processed: 1, kind: 'journal' });
    const held = () => t.ctx.db.selectFrom('journal_recordings').select(['sealed', 'transcript_status']).where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    expect(await held()).toEqual({ sealed: 1, transcript_status: 'pending' });
    // Another user's text goes into their journal meanwhile.
    await textJournal(t, other.phone, 'Walked the dog by the river');
    expect((await journalOf(t, other.id)).map((e) => e.content)).toEqual(['Walked the dog by the river']);

    // The one try runs out: the note is kept, "not transcribed", its audio still sealed.
    await heardInMemory(t.ctx);
    expect(fake.requests.map((r) => r.answered)).toEqual(['hang']);
    expect(await held()).toEqual({ sealed: 1, transcript_status: 'failed' });
    fake.outage(null);
  });
});
