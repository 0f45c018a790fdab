import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism, getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { decodeToF32le16k } from '../audio';
import type { TranscriptionOutcome } from './client';
import { decodeForTranscription } from './decode';
import { transcriptionLog } from './log';

// Whisper on this server (WHISPER_MODEL): the audio never leaves it. The engine (whisper.cpp, through
// @napi-rs/whisper) runs in a child process of its own (whisper-worker.mjs), never in the server's:
// its work is synchronous, seconds of CPU that would hold the event loop, and a fault in its native
// code aborts the process it is in. The child is started when it is first needed, holds the model,
// and transcribes one recording at a time; one that runs past TRANSCRIBE_TIMEOUT_SECONDS is killed,
// and the next recording starts another, as after one that stopped on its own. Either is a 'retry'
// for the recording, never the server's end.

export type WhisperSettings = NonNullable<Config['whisper']>;

/** How the engine decodes (the defaults are Whisper's own) and how it shares the cores. */
export interface WhisperDecoding {
  /** Tokens per 30 s window at most (0: no limit). */
  maxTokens?: number;
  /** One segment per window (no timestamps decoded). */
  singleSegment?: boolean;
  /** Audio frames the encoder takes per window (0: all 1500, 30 s; fewer are faster, and hear only the window's start). */
  audioCtx?: number;
  /** Threads the engine computes with (default: the cores, at most 4). */
  threads?: number;
  /** The engine's nice value (default: the server's plus 10, so that its requests come first). */
  priority?: number;
}

/** Why the engine has no model loaded. */
export type EngineProblem =
  | { kind: 'missing' }
  | { kind: 'invalid'; detail: string }
  | { kind: 'unavailable'; detail: string }
  | { kind: 'language'; detail: string }
  | { kind: 'crashed' }
  | { kind: 'timed out' }
  | { kind: 'closed' };

/** One try's outcome; 'model not loaded' says why. */
export type LocalOutcome = TranscriptionOutcome | { kind: 'retry'; reason: 'model not loaded'; problem: EngineProblem };

type WorkerEvent =
  | { type: 'ready'; multilingual: boolean }
  | { type: 'load-failed'; kind: 'missing' | 'invalid' | 'unavailable' | 'language'; detail?: string }
  | { type: 'result'; id: number; text: string }
  | { type: 'error'; id: number; message: string }
  | { type: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { type: 'timeout' };

/** The worker script, beside this file: plain JavaScript, run by plain Node wherever the server runs. */
const WORKER = fileURLToPath(new URL('./whisper-worker.mjs', import.meta.url));
/** Loading a model has a bound of its own: a large one read from a slow disk takes a while. */
export const LOAD_TIMEOUT_MS = 5 * 60_000;
/** What whisper.cpp writes for a window without speech. */
const BLANK = /\[BLANK_AUDIO\]/g;

export class LocalWhisper {
  readonly #settings: WhisperSettings;
  readonly #decoding: Required<WhisperDecoding>;
  #child: ChildProcess | null = null;
  #loaded = false;
  #closed = false;
  #waiter: ((event: WorkerEvent) => void) | null = null;
  #busy = false;
  readonly #turns: (() => void)[] = [];
  #nextId = 1;
  #stderrTail = '';
  #lastExit: { code: number | null; signal: NodeJS.Signals | null; stderr: string } | null = null;

  constructor(settings: WhisperSettings, decoding: WhisperDecoding = {}) {
    this.#settings = settings;
    this.#decoding = { maxTokens: 0, singleSegment: false, audioCtx: 0, threads: Math.max(1, Math.min(4, availableParallelism())), priority: Math.min(19, getPriority() + 10), ...decoding };
  }

  /** The engine's process id while it runs. */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** How the engine's last process ended (its exit code or signal, the end of what it wrote to standard error). */
  get lastExit(): { code: number | null; signal: NodeJS.Signals | null; stderr: string } | null {
    return this.#lastExit;
  }

  /**
   * Loads the model unless it is (starting the engine): null once it is, or what is wrong. Null too
   * when recordings kept the engine busy for the whole timeout (it has its model then).
   */
  async load(): Promise<EngineProblem | null> {
    return this.#inTurn(
      () => this.#ensureLoaded(),
      () => null,
    );
  }

  /**
   * Transcribes 16 kHz mono float32 samples (their bytes, as ffmpeg's f32le writes them), after the
   * recordings before it: one at a time. Waiting its turn and its own work are each bounded by the
   * timeout (loading the model, when it is not, by LOAD_TIMEOUT_MS). Never throws.
   */
  async transcribe(samples: Buffer): Promise<LocalOutcome> {
    return this.#inTurn<LocalOutcome>(
      () => this.#transcribeNow(samples),
      () => ({ kind: 'retry', reason: 'engine busy' }),
    );
  }

  /** Stops the engine; nothing more is transcribed. */
  close(): void {
    this.#closed = true;
    this.#stop();
  }

  /** Runs `work` when no other is running, or answers `gaveUp()` when its turn did not come within the timeout. */
  async #inTurn<T>(work: () => Promise<T>, gaveUp: () => T): Promise<T> {
    if (this.#busy) {
      const turn = await new Promise<boolean>((resolve) => {
        const take = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.#turns.splice(this.#turns.indexOf(take), 1);
          resolve(false);
        }, this.#settings.timeoutMs);
        this.#turns.push(take);
      });
      if (!turn) return gaveUp();
    } else {
      this.#busy = true;
    }
    try {
      return await work();
    } finally {
      // A finished try hands its turn straight to the next in line.
      const next = this.#turns.shift();
      if (next) next();
      else this.#busy = false;
    }
  }

  async #transcribeNow(samples: Buffer): Promise<LocalOutcome> {
    const problem = await this.#ensureLoaded();
    if (problem) return { kind: 'retry', reason: 'model not loaded', problem };
    const deadline = Date.now() + this.#settings.timeoutMs;
    const id = this.#nextId++;
    this.#send({ type: 'transcribe', id, samples });
    for (;;) {
      const event = await this.#next(deadline);
      switch (event.type) {
        case 'result':
          if (event.id !== id) continue;
          return { kind: 'transcribed', text: event.text.replace(BLANK, ' ').replace(/\s+/g, ' ').trim() };
        case 'error':
          if (event.id !== id) continue;
          return { kind: 'failed', reason: 'the engine could not transcribe it' };
        case 'timeout':
          this.#stop();
          return { kind: 'retry', reason: 'timed out' };
        case 'exit':
          return { kind: 'retry', reason: 'engine stopped' };
        default:
          continue;
      }
    }
  }

  async #ensureLoaded(): Promise<EngineProblem | null> {
    if (this.#closed) return { kind: 'closed' };
    if (this.#child && this.#loaded) return null;
    this.#stop();
    this.#start();
    this.#send({ type: 'load', modelPath: this.#settings.modelPath, language: this.#settings.language ?? null, ...this.#decoding });
    const event = await this.#next(Date.now() + LOAD_TIMEOUT_MS);
    if (event.type === 'ready') {
      this.#loaded = true;
      return null;
    }
    this.#stop();
    if (event.type === 'load-failed') return event.kind === 'missing' ? { kind: 'missing' } : { kind: event.kind, detail: event.detail ?? '' };
    if (event.type === 'timeout') return { kind: 'timed out' };
    return { kind: 'crashed' };
  }

  /** The engine's next word: a message, its end, or the deadline. */
  #next(deadline: number): Promise<WorkerEvent> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.#waiter = null;
          resolve({ type: 'timeout' });
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#waiter = (event) => {
        clearTimeout(timer);
        this.#waiter = null;
        resolve(event);
      };
    });
  }

  #send(message: object): void {
    // A child that is gone says so by its exit, which the caller is waiting for.
    this.#child?.send(message, () => undefined);
  }

  #start(): void {
    // Only what Node needs: the engine reads untrusted audio and has no use for the server's secrets.
    const child = fork(WORKER, [], {
      execArgv: [],
      env: { PATH: process.env.PATH ?? '' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#child = child;
    this.#loaded = false;
    this.#stderrTail = '';
    const current = () => this.#child === child;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      if (current()) this.#stderrTail = (this.#stderrTail + text).slice(-2000);
    });
    child.on('message', (message: WorkerEvent) => {
      if (current()) this.#waiter?.(message);
    });
    const ended = (code: number | null, signal: NodeJS.Signals | null) => {
      if (!current()) return;
      this.#child = null;
      this.#loaded = false;
      this.#lastExit = { code, signal, stderr: this.#stderrTail.trim().split('\n').slice(-3).join('\n').slice(0, 500) };
      this.#waiter?.({ type: 'exit', code, signal });
    };
    child.on('exit', ended);
    child.on('error', () => ended(null, null));
    // An idle engine keeps nothing alive: a command that is done ends, and the engine with it (it
    // leaves when its channel closes).
    child.unref();
    child.channel?.unref();
    (child.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
  }

  /** Kills the engine's process; a try waiting on it (the app is closing) ends as if it had stopped. */
  #stop(): void {
    const child = this.#child;
    this.#child = null;
    this.#loaded = false;
    if (!child) return;
    child.kill('SIGKILL');
    this.#waiter?.({ type: 'exit', code: null, signal: 'SIGKILL' });
  }
}

/** Per app: its engine (one per instance). */
const engines = new WeakMap<AppContext, LocalWhisper>();
/** Per app: whether the engine's problem was logged already (once until the model loads). */
const problemLogged = new WeakMap<AppContext, boolean>();

/** The app's engine, made when first asked for. */
export function localWhisper(ctx: AppContext, settings: WhisperSettings): LocalWhisper {
  let engine = engines.get(ctx);
  if (!engine) {
    engine = new LocalWhisper(settings);
    engines.set(ctx, engine);
  }
  return engine;
}

/** The engine this app uses (set before its first transcription: the tests decode fewer tokens). */
export function useLocalWhisper(ctx: AppContext, engine: LocalWhisper): void {
  engines.get(ctx)?.close();
  engines.set(ctx, engine);
}

/** Stops the app's engine, if it has one (the app is closing). */
export function closeLocalWhisper(ctx: AppContext): void {
  engines.get(ctx)?.close();
}

/** What the server says when the engine cannot load its model. */
export function engineProblemMessage(settings: WhisperSettings, problem: EngineProblem): string {
  const kept = 'voice notes are kept and wait to be transcribed (a day at most)';
  switch (problem.kind) {
    case 'missing':
      return `WHISPER_MODEL: no file at ${settings.modelPath}; ${kept}. \`jotline voice model fetch\` downloads a model.`;
    case 'invalid':
      return `WHISPER_MODEL: ${settings.modelPath} is not a Whisper model (${problem.detail}); ${kept}. Use a ggml model from whisper.cpp: \`jotline voice model fetch\` downloads one.`;
    case 'unavailable':
      return `WHISPER_MODEL: the Whisper engine (@napi-rs/whisper) has no build for this server (${problem.detail}); ${kept}. Set TRANSCRIBE_URL to a transcription service instead.`;
    case 'language':
      return `TRANSCRIBE_LANGUAGE: Whisper knows no language "${problem.detail}"; ${kept}. Set a code such as en or de, or unset it to detect the language.`;
    case 'timed out':
      return `WHISPER_MODEL: loading ${settings.modelPath} took longer than ${LOAD_TIMEOUT_MS / 60_000} minutes; ${kept}.`;
    case 'crashed':
      return `WHISPER_MODEL: the Whisper engine stopped while loading ${settings.modelPath}; ${kept}.`;
    case 'closed':
      return 'The Whisper engine is stopped: the server is shutting down.';
  }
}

/**
 * At start, with WHISPER_MODEL: loads the model (so the first voice note does not wait for it) and
 * answers what is wrong with it, or null.
 */
export async function localWhisperProblem(ctx: AppContext): Promise<string | null> {
  const settings = ctx.config.whisper;
  if (!settings) return null;
  const problem = await localWhisper(ctx, settings).load();
  return problem ? engineProblemMessage(settings, problem) : null;
}

/**
 * Decodes the audio to 16 kHz mono float samples (ffmpeg, a child process too) and transcribes it
 * once on this server; logs the outcome's kind (a model that does not load once, until it does).
 * Never throws.
 */
export async function transcribeLocally(ctx: AppContext, settings: WhisperSettings, audio: Buffer, recordingId: string | null): Promise<TranscriptionOutcome> {
  const decoded = await decodeForTranscription(ctx, audio, recordingId, decodeToF32le16k);
  if (!decoded.ok) return decoded.outcome;
  const engine = localWhisper(ctx, settings);
  const outcome = await engine.transcribe(decoded.audio);
  const log = transcriptionLog(ctx);
  if (outcome.kind === 'transcribed') {
    problemLogged.delete(ctx);
    return outcome;
  }
  if ('problem' in outcome) {
    if (!problemLogged.get(ctx) && outcome.problem.kind !== 'closed') {
      problemLogged.set(ctx, true);
      log.error({ recordingId }, `${engineProblemMessage(settings, outcome.problem)} (Logged once until the model loads.)`);
    }
    return { kind: 'retry', reason: outcome.reason };
  }
  if (outcome.reason === 'engine stopped') {
    log.warn({ recordingId, exit: engine.lastExit }, 'the Whisper engine stopped while transcribing a voice note; it is started again for the next, and this one is retried');
  } else {
    log.warn({ recordingId, reason: outcome.reason }, outcome.kind === 'failed' ? 'voice note not transcribed' : 'transcription failed; it will be retried');
  }
  return outcome;
}
