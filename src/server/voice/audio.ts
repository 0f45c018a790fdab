import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { VOICE_MAX_BYTES, voiceMessages } from '../../shared/voice-messages';
import { AppError, invalidInput } from '../errors';

// Audio is known by decoding it, never by its name or declared type: ffprobe reads the container
// and its streams, ffmpeg decodes. Both run as child processes (Debian's ffmpeg, kept up to date by
// the system's security updates), fed through a pipe: the audio is never written to disk here, and
// nothing the decoder does can stall or end the server. A child that runs too long is killed.

export interface ProbedAudio {
  /** The type the audio is stored and served as (from its container, not its name). */
  mimeType: string;
  durationSeconds: number;
}

const PROBE_TIMEOUT_MS = 15_000;
const DECODE_TIMEOUT_MS = 60_000;
/** Past the limit by less than this is the limit still (a call recorded to its maxLength ends a little past it). */
const LENGTH_SLACK_SECONDS = 0.5;

class ChildFailed extends Error {}

interface ChildResult {
  stdout: Buffer;
  code: number | null;
}

/**
 * Runs a decoder with `input` on its stdin; answers its stdout (or, with `countOnly`, only its
 * length in bytes), or throws ChildFailed when it cannot be started or runs past `timeoutMs`.
 */
/**
 * Decoders running at once in this instance; the rest wait their turn. A burst of voice notes
 * (a hundred uploads at once) would otherwise start a hundred ffmpeg processes on a few cores,
 * each spawn blocking the event loop a moment and all of them fighting for CPU and memory.
 */
const DECODERS_AT_ONCE = Math.max(2, availableParallelism());
let decodersRunning = 0;
const waitingForDecoder: (() => void)[] = [];

async function runChild(command: string, args: readonly string[], input: Buffer, timeoutMs: number, countOnly = false): Promise<ChildResult & { bytes: number }> {
  // A finished decoder hands its place straight to the next in line, so the count never goes over.
  if (decodersRunning >= DECODERS_AT_ONCE) await new Promise<void>((resolve) => waitingForDecoder.push(resolve));
  else decodersRunning++;
  try {
    return await startChild(command, args, input, timeoutMs, countOnly);
  } finally {
    const next = waitingForDecoder.shift();
    if (next) next();
    else decodersRunning--;
  }
}

function startChild(command: string, args: readonly string[], input: Buffer, timeoutMs: number, countOnly: boolean): Promise<ChildResult & { bytes: number }> {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    } catch (error) {
      reject(new ChildFailed(`${command} could not start: ${(error as Error).message}`));
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
      reject(new ChildFailed(`${command} ran past ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (!countOnly) chunks.push(chunk);
    });
    child.on('error', (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new ChildFailed(`${command} could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(chunks), code, bytes });
    });
    // The decoder may stop reading early (it has seen enough, or refuses the input): not an error here.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
}

interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; tags?: Record<string, string> };
}

/** The containers taken, by ffprobe's format name, and the type each is kept as. */
function mimeTypeOf(probe: ProbeOutput): string | null {
  const format = probe.format?.format_name ?? '';
  const audio = (probe.streams ?? []).filter((s) => s.codec_type === 'audio');
  const codecs = new Set(audio.map((s) => s.codec_name));
  if (format === 'amr') return 'audio/amr';
  if (format === 'mp3') return 'audio/mpeg';
  if (format === 'aac') return 'audio/aac';
  if (format === 'wav') return 'audio/wav';
  if (format === 'ogg') return [...codecs].every((c) => c === 'opus' || c === 'vorbis' || c === 'flac') ? 'audio/ogg' : null;
  if (format === 'matroska,webm') return [...codecs].every((c) => c === 'opus' || c === 'vorbis') ? 'audio/webm' : null;
  if (format.startsWith('mov,mp4')) {
    const brand = (probe.format?.tags?.major_brand ?? '').trim().toLowerCase();
    return brand.startsWith('3g') ? 'audio/3gpp' : 'audio/mp4';
  }
  return null;
}

/** Speech bytes after each frame's header, by frame type, in AMR's storage format (RFC 4867 §5.3). */
const AMR_FRAME_BYTES = {
  nb: [12, 13, 15, 17, 19, 20, 26, 31, 5, 0, 0, 0, 0, 0, 0, 0],
  wb: [17, 23, 32, 36, 40, 46, 50, 58, 60, 5, 0, 0, 0, 0, 0, 0],
};

/**
 * The length of a raw AMR file (.amr, AMR-NB or AMR-WB) by its frames, 20 ms each, silent ones
 * included: the file states none (ffprobe guesses from the bitrate), and decoding drops the
 * comfort-noise frames phones write in pauses, so neither tells how long the person talked. Null
 * when the bytes are not such a file.
 */
export function amrSeconds(bytes: Buffer): number | null {
  const kind = bytes.toString('latin1', 0, 9) === '#!AMR-WB\n' ? 'wb' : bytes.toString('latin1', 0, 6) === '#!AMR\n' ? 'nb' : null;
  if (!kind) return null;
  let offset = kind === 'wb' ? 9 : 6;
  let frames = 0;
  while (offset < bytes.length) {
    offset += 1 + AMR_FRAME_BYTES[kind][(bytes[offset]! >> 3) & 0x0f]!;
    frames++;
  }
  return frames ? frames * 0.02 : null;
}

/** A length ffprobe printed: a finite number of seconds, or null ("N/A", absent). */
function seconds(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : null;
}

function notAudio(): AppError {
  return invalidInput(voiceMessages.errors.notAudio);
}

function noDecoder(): AppError {
  return new AppError('UNAVAILABLE', voiceMessages.errors.noDecoder);
}

/** The 25 MB cap, before anything is decoded. */
export function checkAudioSize(size: number): void {
  if (size > VOICE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', voiceMessages.errors.tooLarge);
}

/**
 * Whether `bytes` are audio this service keeps, by decoding them: one of the containers above with
 * an audio stream and no moving picture (cover art in an MP3 is allowed; a 3GP with video is not),
 * up to `maxSeconds` long and 25 MB. The length is the container's (ffmpeg drops AMR comfort-noise
 * frames, so the decoded length is shorter than what was said); a container without one (WebM from a
 * browser's MediaRecorder) is decoded to measure it.
 */
export async function probeAudio(bytes: Buffer, maxSeconds: number): Promise<ProbedAudio> {
  checkAudioSize(bytes.length);
  if (bytes.length === 0) throw notAudio();
  let probe: ProbeOutput;
  try {
    const result = await runChild('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-i', 'pipe:0'], bytes, PROBE_TIMEOUT_MS);
    if (result.code !== 0) throw notAudio();
    probe = JSON.parse(result.stdout.toString('utf8')) as ProbeOutput;
  } catch (error) {
    if (error instanceof ChildFailed) throw /could not start/.test(error.message) ? noDecoder() : notAudio();
    if (error instanceof AppError) throw error;
    throw notAudio();
  }
  const streams = probe.streams ?? [];
  const audio = streams.filter((s) => s.codec_type === 'audio');
  const video = streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (audio.length === 0 || video.length > 0) throw notAudio();
  const mimeType = mimeTypeOf(probe);
  if (!mimeType) throw notAudio();
  let duration = (mimeType === 'audio/amr' ? amrSeconds(bytes) : null) ?? seconds(probe.format?.duration) ?? Math.max(0, ...audio.map((s) => seconds(s.duration) ?? 0));
  if (!duration) duration = await decodedSeconds(bytes);
  if (!duration) throw notAudio();
  if (duration > maxSeconds + LENGTH_SLACK_SECONDS) throw invalidInput(voiceMessages.errors.tooLong(maxSeconds));
  return { mimeType, durationSeconds: Math.round(duration * 1000) / 1000 };
}

/** The length of the audio as decoded (8 kHz mono 16-bit: 16,000 bytes a second), for a container that does not say. */
async function decodedSeconds(bytes: Buffer): Promise<number> {
  try {
    const result = await runChild('ffmpeg', ['-v', 'error', '-nostdin', '-i', 'pipe:0', '-vn', '-ac', '1', '-ar', '8000', '-f', 's16le', 'pipe:1'], bytes, DECODE_TIMEOUT_MS, true);
    if (result.code !== 0) throw notAudio();
    return result.bytes / 16_000;
  } catch (error) {
    if (error instanceof ChildFailed) throw /could not start/.test(error.message) ? noDecoder() : notAudio();
    throw error;
  }
}

/**
 * The audio as 16 kHz mono 16-bit WAV, what transcription services take (they do not take AMR or
 * 3GP). Throws an AppError (400) when it does not decode, UNAVAILABLE without a decoder.
 */
export async function decodeToWav16k(bytes: Buffer): Promise<Buffer> {
  return decode(bytes, ['-ac', '1', '-ar', '16000', '-f', 'wav']);
}

/** The audio as 16 kHz mono 32-bit float samples (a local engine's input). */
export async function decodeToF32le16k(bytes: Buffer): Promise<Buffer> {
  return decode(bytes, ['-ac', '1', '-ar', '16000', '-f', 'f32le']);
}

async function decode(bytes: Buffer, output: readonly string[]): Promise<Buffer> {
  try {
    const result = await runChild('ffmpeg', ['-v', 'error', '-nostdin', '-i', 'pipe:0', '-vn', ...output, 'pipe:1'], bytes, DECODE_TIMEOUT_MS);
    if (result.code !== 0 || result.stdout.length === 0) throw notAudio();
    return result.stdout;
  } catch (error) {
    if (error instanceof ChildFailed) throw /could not start/.test(error.message) ? noDecoder() : notAudio();
    throw error;
  }
}

/** Whether ffmpeg and ffprobe can be run here (checked at start, to say so when voice needs them). */
export async function findDecoders(): Promise<{ ffmpeg: boolean; ffprobe: boolean }> {
  const runs = async (command: string) => {
    try {
      const result = await runChild(command, ['-version'], Buffer.alloc(0), PROBE_TIMEOUT_MS, true);
      return result.code === 0;
    } catch {
      return false;
    }
  };
  const [ffmpeg, ffprobe] = await Promise.all([runs('ffmpeg'), runs('ffprobe')]);
  return { ffmpeg, ffprobe };
}

/**
 * What the server says at start when a decoder is missing: voice notes (MMS, calls, the web) are
 * refused without ffprobe, and not transcribed without ffmpeg. Null when both are there.
 */
export function decoderWarning(found: { ffmpeg: boolean; ffprobe: boolean }, transcribes: boolean): string | null {
  const missing = [!found.ffprobe && 'ffprobe', !found.ffmpeg && 'ffmpeg'].filter(Boolean).join(' and ');
  if (!missing) return null;
  const effect = !found.ffprobe
    ? 'voice notes (calls, MMS, the web) are refused until it is installed'
    : transcribes
      ? 'voice notes are kept but cannot be transcribed until it is installed'
      : 'voice notes in containers without a length (browser recordings) are refused until it is installed';
  return `Audio decoder not found: ${missing} ${found.ffmpeg || found.ffprobe ? 'is' : 'are'} not on the PATH (Debian: apt-get install ffmpeg); ${effect}.`;
}
