import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../config';

// `jotline voice model fetch [tiny.en|base.en]`: downloads a Whisper model for WHISPER_MODEL from
// whisper.cpp's public home, checks it against the SHA-1 whisper.cpp publishes for it, and writes it
// whole or not at all (a temporary file beside it, renamed once it checks out).

export interface WhisperModelInfo {
  /** SHA-1 of the file, as whisper.cpp's models/README.md lists it. */
  sha1: string;
  size: string;
}

/** The models offered, English-only: tiny.en costs about half the CPU of base.en, which is more accurate. */
export const WHISPER_MODELS: Readonly<Record<string, WhisperModelInfo>> = {
  'tiny.en': { sha1: 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df', size: '75 MiB' },
  'base.en': { sha1: '137c40403d78fd54d454da0f9bd998f78703390c', size: '142 MiB' },
};
export const DEFAULT_WHISPER_MODEL = 'tiny.en';
/** whisper.cpp's models, on Hugging Face. */
export const WHISPER_MODELS_HOME = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';
/** A download that receives nothing for this long is given up. */
const IDLE_TIMEOUT_MS = 60_000;

const USAGE = `Usage: jotline voice model fetch [${Object.keys(WHISPER_MODELS).join('|')}] [--to DIR] [--from URL]

  Downloads a Whisper model (default ${DEFAULT_WHISPER_MODEL}) into DIR (default: DATA_DIR/models),
  checks its SHA-1, and prints the WHISPER_MODEL line to set. --from is where the models are
  (default ${WHISPER_MODELS_HOME}).`;

/** A download that did not give a model: the message says why, and nothing was written. */
export class FetchError extends Error {
  override name = 'FetchError';
}

export interface FetchArgs {
  name: string;
  /** The folder, when --to was given. */
  dir: string | null;
  from: string;
}

/** The arguments after `voice model fetch`. */
export function parseFetchArgs(args: readonly string[]): FetchArgs | { error: string } {
  let name: string | null = null;
  let dir: string | null = null;
  let from = WHISPER_MODELS_HOME;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const option = /^--(to|from)(?:=(.*))?$/.exec(arg);
    if (option) {
      const value = option[2] ?? args[++i];
      if (!value) return { error: `--${option[1]} needs a value` };
      if (option[1] === 'to') dir = resolve(value);
      else if (!/^https?:\/\/[^/]/.test(value)) return { error: `--from must be an http:// or https:// URL (got "${value}")` };
      else from = value.replace(/\/+$/, '');
    } else if (arg.startsWith('-') || name !== null) {
      return { error: `Unknown argument: ${arg}` };
    } else if (!Object.hasOwn(WHISPER_MODELS, arg)) {
      return { error: `There is no model "${arg}" to fetch; choose ${Object.keys(WHISPER_MODELS).join(' or ')}.` };
    } else {
      name = arg;
    }
  }
  return { name: name ?? DEFAULT_WHISPER_MODEL, dir, from };
}

async function sha1Of(path: string): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export interface FetchedModel {
  path: string;
  /** False when the file was there already, with the right checksum. */
  downloaded: boolean;
}

/**
 * Downloads `ggml-<name>.bin` from `from` into `dir` and checks its SHA-1 against `models`. Written
 * to a temporary file first and renamed into place only once it checks out: a failed, cut or wrong
 * download leaves nothing. A file already there with the right checksum is kept as it is.
 */
export async function fetchWhisperModel(options: {
  name: string;
  dir: string;
  from: string;
  models?: Readonly<Record<string, WhisperModelInfo>>;
  onProgress?: (received: number, total: number | null) => void;
}): Promise<FetchedModel> {
  const info = (options.models ?? WHISPER_MODELS)[options.name];
  if (!info) throw new FetchError(`There is no model "${options.name}" to fetch.`);
  const file = `ggml-${options.name}.bin`;
  const path = join(options.dir, file);
  if ((await isFile(path)) && (await sha1Of(path)) === info.sha1) return { path, downloaded: false };
  const url = `${options.from.replace(/\/+$/, '')}/${file}`;
  await mkdir(options.dir, { recursive: true });
  const partial = join(options.dir, `.${file}.${randomBytes(6).toString('hex')}.partial`);
  const controller = new AbortController();
  let idle = setTimeout(() => controller.abort(), IDLE_TIMEOUT_MS);
  const stillAlive = () => {
    clearTimeout(idle);
    idle = setTimeout(() => controller.abort(), IDLE_TIMEOUT_MS);
  };
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal });
    } catch (error) {
      throw new FetchError(`The download from ${url} did not start (${causeOf(error)}); nothing was written.`);
    }
    if (!response.ok || !response.body) throw new FetchError(`The download failed: ${url} answered HTTP ${response.status}; nothing was written.`);
    const total = Number(response.headers.get('content-length')) || null;
    const hash = createHash('sha1');
    const out = await open(partial, 'wx');
    let received = 0;
    try {
      for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)) {
        const bytes = chunk as Buffer;
        stillAlive();
        hash.update(bytes);
        await out.write(bytes);
        received += bytes.length;
        options.onProgress?.(received, total);
      }
      await out.sync();
    } catch (error) {
      const stalled = controller.signal.aborted ? `nothing arrived for ${IDLE_TIMEOUT_MS / 1000} s` : causeOf(error);
      throw new FetchError(`The download from ${url} was cut off after ${received} bytes (${stalled}); nothing was written. Run the command again.`);
    } finally {
      await out.close();
    }
    const actual = hash.digest('hex');
    if (actual !== info.sha1) {
      throw new FetchError(`The download from ${url} is not ${file} as whisper.cpp publishes it (SHA-1 ${actual}, expected ${info.sha1}); nothing was written.`);
    }
    await rename(partial, path);
    return { path, downloaded: true };
  } finally {
    clearTimeout(idle);
    await rm(partial, { force: true });
  }
}

/** A network failure's code (ECONNRESET…) or message, without the URL again. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** `jotline voice model fetch [tiny.en|base.en] [--to DIR] [--from URL]`. */
export async function voiceCommand(args: readonly string[]): Promise<void> {
  const [subject, action, ...rest] = args;
  const parsed = subject === 'model' && action === 'fetch' ? parseFetchArgs(rest) : { error: '' };
  if ('error' in parsed) {
    console.error(parsed.error ? `${parsed.error}\n${USAGE}` : USAGE);
    process.exitCode = 2;
    return;
  }
  const dir = parsed.dir ?? join(loadConfig().dataDir, 'models');
  const info = WHISPER_MODELS[parsed.name]!;
  console.log(`Fetching ggml-${parsed.name}.bin (${info.size}) from ${parsed.from} into ${dir}…`);
  const progress = process.stderr.isTTY
    ? (received: number, total: number | null) => {
        if (total) process.stderr.write(`\r  ${Math.floor((received / total) * 100)}%`);
      }
    : undefined;
  try {
    const fetched = await fetchWhisperModel({ name: parsed.name, dir, from: parsed.from, onProgress: progress });
    if (progress) process.stderr.write('\r');
    console.log(fetched.downloaded ? `Saved ${fetched.path}; its SHA-1 is the one whisper.cpp publishes.` : `${fetched.path} is there already, with the SHA-1 whisper.cpp publishes.`);
    console.log(`\nTo transcribe voice notes on this server, set this (in .env or the environment) and restart it:\n\n  WHISPER_MODEL=${fetched.path}\n`);
  } catch (error) {
    if (progress) process.stderr.write('\n');
    if (!(error instanceof FetchError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
