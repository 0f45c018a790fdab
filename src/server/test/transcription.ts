// Test helpers for transcription: apps wired to a fake transcription API (fake-transcriber.ts), on a
// database of their own (the job claims every journal's pending recordings) that a second app can
// share to play another instance, and real audio to send. Imported by tests only.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { AppContext } from '../context';
import { buildTestApp, type TestApp } from './app';
import { FAKE_TRANSCRIBE_KEY, type FakeTranscriber } from './fake-transcriber';

export { FAKE_TRANSCRIBE_KEY, startFakeTranscriber, type FakeTranscriber } from './fake-transcriber';

/**
 * A tone as an 8 kHz mono 16-bit WAV, as a phone call's recording arrives (a few seconds of it; the
 * pitch varies so two notes differ).
 */
export function toneWav(seconds: number, hertz = 440): Buffer {
  const rate = 8000;
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hertz * i) / rate)), 44 + i * 2);
  return wav;
}

export interface TranscriptionTestApp extends TestApp {
  ctx: AppContext;
  /** Every log line the app wrote (LOG_LEVEL=info), as JSON text. */
  logLines: string[];
  /** Settings another instance needs to share this one's database, files and keys. */
  shared: Record<string, string>;
}

/**
 * An app whose TRANSCRIBE_URL is the fake (unless `env` says otherwise), on a database and a file
 * store of its own, or on `sameAs`'s to play a second instance.
 */
export async function buildTranscriptionTestApp(options: { fake?: FakeTranscriber; env?: Record<string, string>; sameAs?: TranscriptionTestApp } = {}): Promise<TranscriptionTestApp> {
  const own = options.sameAs ? undefined : await ownDatabase();
  const shared = options.sameAs?.shared ?? { DATABASE_URL: own!.url, STORAGE_URL: own!.files, MASTER_KEY: randomBytes(32).toString('base64') };
  const transcription: Record<string, string> = options.fake ? { TRANSCRIBE_URL: options.fake.url, TRANSCRIBE_API_KEY: FAKE_TRANSCRIBE_KEY } : {};
  const logLines: string[] = [];
  const t = await buildTestApp({ LOG_LEVEL: 'info', ...shared, ...transcription, ...options.env }, { logDestination: { write: (line) => void logLines.push(line) } });
  return {
    ...t,
    ctx: t.app.ctx,
    logLines,
    shared,
    async close() {
      await t.close();
      await own?.drop();
    },
  };
}

async function ownDatabase(): Promise<{ url: string; files: string; drop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'jotline-transcription-'));
  const files = join(dir, 'files');
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { url: `sqlite:${join(dir, 'journal.db')}`, files, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  const name = `jotline_transcription_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const drop = async () => {
    rmSync(dir, { recursive: true, force: true });
    // The app's pool may still be closing its connections.
    for (let attempt = 0; attempt < 30; attempt++) {
      try {
        return await admin(`drop database if exists ${name}`);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  return { url: url.toString(), files, drop };
}
