// The Whisper engine's own process, started by local.ts (child_process.fork) and spoken to over
// its IPC channel. It holds the model and transcribes one recording at a time: 16 kHz mono float32
// samples in, text out. It runs apart from the server because the engine cannot share its process:
// its work is synchronous (it would hold the server's event loop for seconds) and a fault in its
// native code aborts the whole process. Plain JavaScript, so that plain Node runs it wherever the
// server runs (from its TypeScript through tsx, or under the tests) without a loader.
//
// Messages in:  { type: 'load', modelPath, language, threads, maxTokens, singleSegment, audioCtx, priority }
//               { type: 'transcribe', id, samples (bytes of float32 samples) }
// Messages out: { type: 'ready', multilingual }
//               { type: 'load-failed', kind: 'missing' | 'invalid' | 'unavailable' | 'language', detail }
//               { type: 'result', id, text } or { type: 'error', id, message }
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';

const require = createRequire(import.meta.url);

/** ggml's file magic, "ggml" read as a little-endian uint32. */
const GGML_MAGIC = 0x67676d6c;
/** A multilingual model's vocabulary is 51865 tokens or more; English-only ones (tiny.en…) have 51864. */
const MULTILINGUAL_VOCAB = 51865;
/** Whisper takes no less than a second; a shorter note is padded with silence. */
const MIN_SAMPLES = 16_000 + 1_600;

/** @type {{ whisper: any, params: any } | null} */
let engine = null;

process.on('message', (message) => {
  if (message?.type === 'load') load(message);
  else if (message?.type === 'transcribe') transcribe(message);
});
// The server went away: nothing is left to do.
process.on('disconnect', () => process.exit(0));

function send(message) {
  process.send?.(message);
}

/**
 * What is wrong with the file as a Whisper model, read from its header (magic, hyperparameters, mel
 * filters, vocabulary); null when it has weights after them. The engine's loader does not refuse a
 * file that ends right after its header (it loads it as an empty model, for its own tests).
 */
function headerProblem(path) {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(size, 8 * 1024 * 1024));
    readSync(fd, head, 0, head.length, 0);
    if (head.length < 56 || head.readUInt32LE(0) !== GGML_MAGIC) return { problem: 'it is not a ggml model file' };
    const nVocab = head.readInt32LE(4);
    const nMel = head.readInt32LE(48);
    const nFft = head.readInt32LE(52);
    let at = 56 + nMel * nFft * 4;
    if (nMel <= 0 || nFft <= 0 || at + 4 > head.length) return { problem: 'its header is cut short' };
    const tokens = head.readInt32LE(at);
    at += 4;
    for (let i = 0; i < tokens; i++) {
      if (at + 4 > head.length) return { problem: 'its header is cut short' };
      at += 4 + head.readUInt32LE(at);
    }
    if (at >= size) return { problem: 'it ends before its weights' };
    return { multilingual: nVocab >= MULTILINGUAL_VOCAB };
  } finally {
    closeSync(fd);
  }
}

function load({ modelPath, language, threads, maxTokens, singleSegment, audioCtx, priority }) {
  // Behind the server (its nice plus 10 by default): its requests come first when both want the cores. The
  // threads the engine starts as it works take this priority with them.
  try {
    setPriority(priority);
  } catch {
    // Not allowed here: the engine runs at the server's priority.
  }
  try {
    if (!statSync(modelPath).isFile()) return send({ type: 'load-failed', kind: 'invalid', detail: 'it is not a file' });
  } catch {
    return send({ type: 'load-failed', kind: 'missing' });
  }
  let header;
  try {
    header = headerProblem(modelPath);
  } catch {
    return send({ type: 'load-failed', kind: 'invalid', detail: 'it cannot be read' });
  }
  if (header.problem) return send({ type: 'load-failed', kind: 'invalid', detail: header.problem });
  let binding;
  try {
    binding = require('@napi-rs/whisper');
  } catch {
    return send({ type: 'load-failed', kind: 'unavailable', detail: `${process.platform}-${process.arch}` });
  }
  if (language && header.multilingual && binding.Whisper.langId(language) < 0) return send({ type: 'load-failed', kind: 'language', detail: language });
  let whisper;
  try {
    whisper = new binding.Whisper(modelPath);
  } catch {
    return send({ type: 'load-failed', kind: 'invalid', detail: 'the engine could not load it' });
  }
  const params = new binding.WhisperFullParams(binding.WhisperSamplingStrategy.Greedy);
  params.nThreads = threads;
  // An English-only model knows no other language (and no detecting one); a multilingual one
  // detects the language unless TRANSCRIBE_LANGUAGE says it.
  params.language = header.multilingual ? language || 'auto' : 'en';
  params.translate = false;
  params.printProgress = false;
  params.printRealtime = false;
  params.printTimestamps = false;
  params.printSpecial = false;
  if (maxTokens > 0) params.maxTokens = maxTokens;
  if (singleSegment) params.singleSegment = true;
  if (audioCtx > 0) params.audioCtx = audioCtx;
  engine = { whisper, params };
  send({ type: 'ready', multilingual: header.multilingual });
}

function transcribe({ id, samples }) {
  if (!engine) return send({ type: 'error', id, message: 'no model loaded' });
  const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength - (samples.byteLength % 4));
  const audio = new Float32Array(Math.max(MIN_SAMPLES, bytes.length / 4));
  // Copied: the samples' bytes need not be aligned for a Float32Array view.
  Buffer.from(audio.buffer).set(bytes);
  try {
    const text = engine.whisper.full(engine.params, audio);
    send({ type: 'result', id, text: String(text) });
  } catch (error) {
    send({ type: 'error', id, message: error instanceof Error ? error.message : String(error) });
  }
}
