import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTranscriptionTestApp, FAKE_TRANSCRIBE_KEY, startFakeTranscriber, toneWav, type FakeTranscriber, type TranscriptionTestApp } from '../../test/transcription';
import { postForTranscript, retryAfterMs } from './client';
import { transcribeOnce } from './engine';

/** A port nothing listens on (it was just let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('the transcription client', () => {
  let fake: FakeTranscriber;
  let t: TranscriptionTestApp;
  beforeAll(async () => {
    fake = await startFakeTranscriber();
    t = await buildTranscriptionTestApp({ fake, env: { TRANSCRIBE_LANGUAGE: 'en', TRANSCRIBE_TIMEOUT_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends the audio as 16 kHz mono WAV with the model, json and the language, and answers the text', async () => {
    fake.answerNext('Walked to the lake after work.');
    expect(await transcribeOnce(t.ctx, toneWav(3))).toBe('Walked to the lake after work.');
    expect(fake.requests.at(-1)).toMatchObject({ model: 'whisper-1', language: 'en', responseFormat: 'json', sampleRate: 16000, channels: 1, answered: 200 });
    expect(fake.requests.at(-1)!.seconds).toBeCloseTo(3, 1);
  });

  it('answers null, never throwing, when the service fails, hangs or the audio does not decode', async () => {
    fake.failNext({ status: 500 });
    expect(await transcribeOnce(t.ctx, toneWav(2))).toBeNull();
    fake.failNext({ hang: 'after-headers' });
    const started = Date.now();
    expect(await transcribeOnce(t.ctx, toneWav(2))).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
    const before = fake.requests.length;
    expect(await transcribeOnce(t.ctx, Buffer.from('not audio at all'))).toBeNull();
    expect(fake.requests).toHaveLength(before);
  });

  it('answers null without TRANSCRIBE_URL, asking no one', async () => {
    const plain = await buildTranscriptionTestApp();
    try {
      const before = fake.requests.length;
      expect(await transcribeOnce(plain.ctx, toneWav(2))).toBeNull();
      expect(fake.requests).toHaveLength(before);
    } finally {
      await plain.close();
    }
  });

  it('classifies each answer: retry after 429 (seconds or a date), 5xx, 401, a timeout; fail at once on 413 and 400', async () => {
    const settings = { url: fake.url, apiKey: FAKE_TRANSCRIBE_KEY, model: 'whisper-1', language: undefined, timeoutMs: 1000 };
    const wav = toneWav(1);
    const now = new Date('2026-03-01T12:00:00Z');
    fake.failNext({ status: 429, retryAfter: '17' });
    expect(await postForTranscript(settings, wav, () => now)).toEqual({ kind: 'retry', reason: 'rate limited', status: 429, retryAfterMs: 17_000 });
    fake.failNext({ status: 429, retryAfter: 'Sun, 01 Mar 2026 12:02:00 GMT' });
    expect(await postForTranscript(settings, wav, () => now)).toMatchObject({ kind: 'retry', retryAfterMs: 120_000 });
    for (const status of [500, 502, 503, 504] as const) {
      fake.failNext({ status });
      expect(await postForTranscript(settings, wav, () => now)).toEqual({ kind: 'retry', reason: 'service error', status });
    }
    expect(await postForTranscript({ ...settings, apiKey: 'sk-wrong' }, wav, () => now)).toEqual({ kind: 'retry', reason: 'key refused', status: 401 });
    fake.failNext({ hang: 'before-headers' });
    expect(await postForTranscript(settings, wav, () => now)).toEqual({ kind: 'retry', reason: 'timed out' });
    fake.failNext({ status: 413 });
    expect(await postForTranscript(settings, wav, () => now)).toMatchObject({ kind: 'failed', status: 413 });
    fake.failNext({ status: 400 });
    expect(await postForTranscript(settings, wav, () => now)).toMatchObject({ kind: 'failed', status: 400 });
    expect(await postForTranscript({ ...settings, url: `http://127.0.0.1:${await closedPort()}/v1` }, wav, () => now)).toEqual({ kind: 'retry', reason: 'network: ECONNREFUSED' });
  });

  it('reads Retry-After as seconds or an HTTP date, and ignores what it cannot read', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(retryAfterMs('5', now)).toBe(5000);
    expect(retryAfterMs('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('says once, not on every voice note, that the server has no audio decoder', async () => {
    const path = process.env.PATH;
    const empty = mkdtempSync(join(tmpdir(), 'no-ffmpeg-'));
    process.env.PATH = empty;
    try {
      const before = fake.requests.length;
      expect(await transcribeOnce(t.ctx, toneWav(1))).toBeNull();
      expect(await transcribeOnce(t.ctx, toneWav(1))).toBeNull();
      expect(fake.requests).toHaveLength(before);
    } finally {
      process.env.PATH = path;
      rmSync(empty, { recursive: true, force: true });
    }
    expect(t.logLines.filter((line) => line.includes('no audio decoder'))).toHaveLength(1);
  });

  it('never writes the key or the transcript to the log', async () => {
    fake.answerNext('My secret words.');
    await transcribeOnce(t.ctx, toneWav(1));
    fake.failNext({ status: 503 });
    await transcribeOnce(t.ctx, toneWav(1));
    const log = t.logLines.join('\n');
    expect(log).toContain('transcription failed');
    expect(log).not.toContain('My secret words');
    expect(log).not.toContain(FAKE_TRANSCRIBE_KEY);
  });
});
