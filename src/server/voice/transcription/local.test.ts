import { closeSync, copyFileSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAudio } from '../../test/audio';
import { randomTestModel, tinyEnHeaderBytes } from '../../test/whisper-model';
import { decodeToF32le16k } from '../audio';
import { engineProblemMessage, LocalWhisper, type WhisperDecoding, type WhisperSettings } from './local';

// Whisper on this server, run for real: the engine (@napi-rs/whisper, whisper.cpp) in its own
// process, loading a model file the test writes itself (tiny.en's shapes, seeded random weights: no
// package ships real ones) and transcribing phone audio ffmpeg decodes. Random weights say nothing
// worth reading, so the tests check that the pipeline runs, not the words; they decode a few tokens
// of a 5 s window so that each transcription takes a moment, at the tests' own priority (behind the
// server's, as it runs in production, the suite's other files would starve it).
const QUICK: WhisperDecoding = { maxTokens: 4, singleSegment: true, audioCtx: 256, priority: 0 };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `done()` (a process's end is seen a moment after the signal). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('Whisper on this server', () => {
  let model: string;
  let samples: Buffer;
  /** Five minutes of a tone, the longest note: ten 30 s windows, seconds of work however decoded. */
  let fiveMinutes: Buffer;
  let dir: string;
  const engines: LocalWhisper[] = [];
  const engine = (settings: Partial<WhisperSettings> = {}, decoding: WhisperDecoding = QUICK) => {
    const made = new LocalWhisper({ modelPath: model, language: undefined, timeoutMs: 60_000, ...settings }, decoding);
    engines.push(made);
    return made;
  };
  beforeAll(async () => {
    model = await randomTestModel();
    // A call's recording as Twilio sends it (8 kHz μ-law WAV), decoded as the job decodes it.
    samples = await decodeToF32le16k(await testAudio('wav-mulaw', 3));
    fiveMinutes = Buffer.from(new Float32Array(300 * 16_000).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 16_000)).buffer);
    dir = mkdtempSync(join(tmpdir(), 'jotline-whisper-'));
  }, 60_000);
  afterAll(() => {
    for (const made of engines) made.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("transcribes a phone call's audio in a process of its own while the server's event loop goes on", async () => {
    const whisper = engine();
    expect(whisper.pid).toBeNull();
    expect(await whisper.load()).toBeNull();
    const pid = whisper.pid;
    expect(pid).toEqual(expect.any(Number));
    expect(pid).not.toBe(process.pid);

    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const outcome = await whisper.transcribe(samples);
    const ticksWhileItWorked = ticks;
    clearInterval(ticker);
    expect(outcome).toEqual({ kind: 'transcribed', text: expect.any(String) });
    // Timers fired here while the engine worked: its seconds of CPU are another process's.
    expect(ticksWhileItWorked).toBeGreaterThan(0);
    // The engine keeps its model for the next recording.
    expect(whisper.pid).toBe(pid);
  }, 60_000);

  it('says clearly what is wrong with a model file that is missing, not a model, or cut short', async () => {
    const cut = (name: string, bytes: number) => {
      const buffer = Buffer.alloc(bytes);
      const fd = openSync(model, 'r');
      readSync(fd, buffer, 0, bytes, 0);
      closeSync(fd);
      writeFileSync(join(dir, name), buffer);
      return join(dir, name);
    };
    const garbage = join(dir, 'garbage.bin');
    writeFileSync(garbage, 'This is a voice memo app, not a neural network.');
    // The header (hparams, mel filters, vocabulary) whole, and then nothing; or a few of the weights.
    const headerOnly = cut('header-only.bin', tinyEnHeaderBytes());
    const someWeights = cut('some-weights.bin', tinyEnHeaderBytes() + 2_000_000);
    const cases: [string, string][] = [
      [join(dir, 'nowhere.bin'), `WHISPER_MODEL: no file at ${join(dir, 'nowhere.bin')}; voice notes are kept and wait to be transcribed (a day at most). \`jotline voice model fetch\` downloads a model.`],
      [garbage, `WHISPER_MODEL: ${garbage} is not a Whisper model (it is not a ggml model file); voice notes are kept and wait to be transcribed (a day at most). Use a ggml model from whisper.cpp: \`jotline voice model fetch\` downloads one.`],
      [headerOnly, `WHISPER_MODEL: ${headerOnly} is not a Whisper model (it ends before its weights); voice notes are kept and wait to be transcribed (a day at most). Use a ggml model from whisper.cpp: \`jotline voice model fetch\` downloads one.`],
      [someWeights, `WHISPER_MODEL: ${someWeights} is not a Whisper model (the engine could not load it); voice notes are kept and wait to be transcribed (a day at most). Use a ggml model from whisper.cpp: \`jotline voice model fetch\` downloads one.`],
      [dir, `WHISPER_MODEL: ${dir} is not a Whisper model (it is not a file); voice notes are kept and wait to be transcribed (a day at most). Use a ggml model from whisper.cpp: \`jotline voice model fetch\` downloads one.`],
    ];
    for (const [modelPath, message] of cases) {
      const whisper = engine({ modelPath });
      const problem = await whisper.load();
      expect(problem && engineProblemMessage({ modelPath, language: undefined, timeoutMs: 60_000 }, problem), modelPath).toBe(message);
      // A recording is not lost: it is a try to make again (the job keeps it and retries).
      expect(await whisper.transcribe(samples)).toEqual({ kind: 'retry', reason: 'model not loaded', problem });
      expect(whisper.pid).toBeNull();
    }
    // Once the file is a model, the same engine loads it.
    copyFileSync(model, someWeights);
    const whisper = engine({ modelPath: someWeights });
    expect(await whisper.load()).toBeNull();
  }, 60_000);

  it('hears the language TRANSCRIBE_LANGUAGE sets, or detects it, with a multilingual model; a code Whisper does not know is said', async () => {
    const multilingual = await randomTestModel('tiny');
    expect(await engine({ modelPath: multilingual, language: 'de' }).transcribe(samples)).toEqual({ kind: 'transcribed', text: expect.any(String) });
    expect(await engine({ modelPath: multilingual }).transcribe(samples)).toEqual({ kind: 'transcribed', text: expect.any(String) });
    const unknown = await engine({ modelPath: multilingual, language: 'xx' }).load();
    expect(unknown && engineProblemMessage({ modelPath: multilingual, language: 'xx', timeoutMs: 60_000 }, unknown)).toBe(
      'TRANSCRIBE_LANGUAGE: Whisper knows no language "xx"; voice notes are kept and wait to be transcribed (a day at most). Set a code such as en or de, or unset it to detect the language.',
    );
    // An English-only model hears English whatever the setting says.
    expect(await engine({ language: 'xx' }).load()).toBeNull();
  }, 60_000);

  it('treats an engine that dies mid-work as a try to make again, and starts another for the next', async () => {
    const whisper = engine();
    expect(await whisper.load()).toBeNull();
    const pid = whisper.pid!;
    const working = whisper.transcribe(fiveMinutes);
    // The engine is killed in the midst of its work, as a fault in its native code would end it.
    setTimeout(() => process.kill(pid, 'SIGKILL'), 100);
    expect(await working).toEqual({ kind: 'retry', reason: 'engine stopped' });
    expect(whisper.lastExit).toMatchObject({ signal: 'SIGKILL' });
    expect(whisper.pid).toBeNull();

    expect(await whisper.transcribe(samples)).toEqual({ kind: 'transcribed', text: expect.any(String) });
    expect(whisper.pid).not.toBe(pid);
  }, 60_000);

  it('ends a try that runs past the timeout, and retries it', async () => {
    // Far more than a tenth of a second of work. (Loading the model has a bound of its own.)
    const whisper = engine({ timeoutMs: 100 }, {});
    expect(await whisper.load()).toBeNull();
    const pid = whisper.pid!;
    // As in production: behind the server.
    expect(getPriority(pid)).toBe(Math.min(19, getPriority() + 10));
    expect(await whisper.transcribe(fiveMinutes)).toEqual({ kind: 'retry', reason: 'timed out' });
    // Killed: its CPU is not spent on a try given up.
    expect(whisper.pid).toBeNull();
    await until(() => !alive(pid));
  }, 60_000);
});
