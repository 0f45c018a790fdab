import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAudio } from '../../test/audio';
import { journalUser, listEntries } from '../../test/journal';
import { buildTranscriptionTestApp, type TranscriptionTestApp } from '../../test/transcription';
import { browserKeys, sealJournal, turnOn } from '../../test/vault';
import { randomTestModel } from '../../test/whisper-model';
import { addRecording, readRecordingAudio } from '../recordings';
import { heardInMemory } from './in-memory';
import { processTranscriptions } from './job';
import { LocalWhisper, localWhisperProblem, useLocalWhisper, type WhisperDecoding } from './local';

// WHISPER_MODEL end to end: a voice note added to a journal is transcribed by the job with the real
// engine (a model file the test writes: tiny.en's shapes, random weights, a few tokens decoded), a
// vault user's in memory as it arrives; with a file that is not a model, no note is lost. The engine
// runs at the tests' own priority (see local.test.ts).
const QUICK: WhisperDecoding = { maxTokens: 4, singleSegment: true, audioCtx: 256, priority: 0 };

async function recordingRow(t: TranscriptionTestApp, id: string) {
  return t.ctx.db.selectFrom('journal_recordings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('voice notes transcribed on this server (WHISPER_MODEL)', () => {
  let t: TranscriptionTestApp;
  let broken: TranscriptionTestApp;
  let dir: string;
  let notAModel: string;
  beforeAll(async () => {
    const model = await randomTestModel();
    dir = mkdtempSync(join(tmpdir(), 'jotline-whisper-job-'));
    notAModel = join(dir, 'ggml-tiny.en.bin');
    writeFileSync(notAModel, '<html>Rate limit exceeded</html>');
    t = await buildTranscriptionTestApp({ env: { WHISPER_MODEL: model } });
    useLocalWhisper(t.ctx, new LocalWhisper(t.ctx.config.whisper!, QUICK));
    broken = await buildTranscriptionTestApp({ env: { WHISPER_MODEL: notAModel } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await broken?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('transcribes a call recording with the job, its transcript joining the entry', async () => {
    expect(t.ctx.config.voice.transcribes).toBe(true);
    const user = await journalUser(t);
    const audio = await testAudio('wav-mulaw', 3);
    const added = await addRecording(t.ctx, user.id, { audio, origin: 'call', receivedAt: t.clock.now() });
    expect(added.recording.transcript_status).toBe('pending');

    expect(await processTranscriptions(t.ctx)).toEqual({ transcribed: 1, retried: 0, failed: 0 });
    const row = await recordingRow(t, added.recording.id);
    expect(row).toMatchObject({ transcript_status: 'done', transcribe_attempts: 1, transcribe_error: null });
    const entry = (await listEntries(t, user)).entries.find((e) => e.id === added.entryId)!;
    expect(entry.recordings).toEqual([expect.objectContaining({ id: added.recording.id, transcript_status: 'done', transcript: expect.any(String) })]);
    expect(entry.content).toContain(entry.recordings![0]!.transcript);
  }, 60_000);

  it("hears a vault user's voice note once from memory as it arrives, and seals its transcript", async () => {
    const user = await journalUser(t);
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    const added = await addRecording(t.ctx, user.id, { audio: await testAudio('wav-mulaw', 2), origin: 'call', receivedAt: t.clock.now() });
    expect(added.recording).toMatchObject({ transcript: null, transcript_status: 'pending' });
    await heardInMemory(t.ctx);
    const recording = (await listEntries(t, user)).entries.find((e) => e.id === added.entryId)!.recordings![0]!;
    expect(recording).toMatchObject({ id: added.recording.id, transcript: null, transcript_status: 'done' });
    expect(JSON.parse(keys.open(recording.sealed!))).toEqual({ transcript: expect.any(String) });
  }, 60_000);

  it('says at start that the file is not a model; a note then waits, kept with its audio, and a vault user’s is kept "Not transcribed"', async () => {
    const message = `WHISPER_MODEL: ${notAModel} is not a Whisper model (it is not a ggml model file); voice notes are kept and wait to be transcribed (a day at most). Use a ggml model from whisper.cpp: \`jotline voice model fetch\` downloads one.`;
    expect(await localWhisperProblem(broken.ctx)).toBe(message);

    const user = await journalUser(broken);
    const audio = await testAudio('wav-mulaw', 2);
    const added = await addRecording(broken.ctx, user.id, { audio, origin: 'call', receivedAt: broken.clock.now() });
    expect(await processTranscriptions(broken.ctx)).toEqual({ transcribed: 0, retried: 1, failed: 0 });
    const row = await recordingRow(broken, added.recording.id);
    expect(row).toMatchObject({ transcript_status: 'pending', transcribe_error: 'model not loaded' });
    expect((await readRecordingAudio(broken.ctx, row)).equals(audio)).toBe(true);
    // The next try, and the log said why once.
    broken.clock.set(new Date(Date.parse(row.transcribe_next_at!)));
    expect(await processTranscriptions(broken.ctx)).toEqual({ transcribed: 0, retried: 1, failed: 0 });
    expect(broken.logLines.filter((line) => line.includes(message))).toHaveLength(1);

    const vaultUser = await journalUser(broken);
    const keys = await browserKeys();
    await turnOn(broken, vaultUser, keys);
    await sealJournal(broken, vaultUser);
    const sealed = await addRecording(broken.ctx, vaultUser.id, { audio, origin: 'call', receivedAt: broken.clock.now() });
    await heardInMemory(broken.ctx);
    expect((await listEntries(broken, vaultUser)).entries.find((e) => e.id === sealed.entryId)!.recordings).toEqual([
      expect.objectContaining({ id: sealed.recording.id, transcript_status: 'failed' }),
    ]);
  }, 60_000);
});
