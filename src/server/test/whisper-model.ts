// A Whisper model for tests: no package ships Whisper's weights, so the tests write a model file
// themselves, in whisper.cpp's ggml format and tiny.en's tensor shapes (or tiny's, the multilingual
// one), with seeded random weights.
// The real loader reads it and the real engine runs it (its words mean nothing). The format, as
// whisper.cpp's loader reads it (all little-endian):
//
//   magic 0x67676d6c ("ggml")
//   hparams: 11 int32 (n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer,
//            n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype)
//   mel filters: int32 n_mel, int32 n_fft, n_mel × n_fft float32
//   vocab: int32 count, then per token uint32 length and its bytes (the special tokens past the
//          count are named by the loader)
//   tensors, to the end: int32 n_dims, int32 name length, int32 type (0 f32, 1 f16), n_dims int32
//          dimensions (innermost first), the name, the data
//
// Written once into the OS's temporary folder (77 MB, like the real tiny.en) and reused by every
// test file after (the name's version changes with what is written); written to a temporary name
// and renamed, so a reader never sees half of it.
import { existsSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GGML_MAGIC = 0x67676d6c;
const F32 = 0;
const F16 = 1;

/** The models written: tiny.en, and tiny (multilingual), whose vocabulary has one token more. */
export type TestModelKind = 'tiny.en' | 'tiny';
const VOCAB: Record<TestModelKind, number> = { 'tiny.en': 51864, tiny: 51865 };

/** tiny's and tiny.en's hyperparameters, but for the vocabulary. */
const TINY = {
  nAudioCtx: 1500,
  nAudioState: 384,
  nAudioHead: 6,
  nAudioLayer: 4,
  nTextCtx: 448,
  nTextState: 384,
  nTextHead: 6,
  nTextLayer: 4,
  nMels: 80,
} as const;
/** Tokens written in the vocabulary (GPT-2's byte pairs); the loader names the special ones past them. */
const WRITTEN_TOKENS = 50256;
const N_FFT = 201;

interface TensorSpec {
  name: string;
  /** Dimensions innermost first, as ggml counts them. */
  dims: number[];
  type: typeof F32 | typeof F16;
}

/** Every tensor the loader expects of the model, in its shapes and types. */
function tinyTensors(kind: TestModelKind): TensorSpec[] {
  const h = TINY;
  const a = h.nAudioState;
  const t = h.nTextState;
  const tensors: TensorSpec[] = [
    { name: 'encoder.positional_embedding', dims: [a, h.nAudioCtx], type: F32 },
    { name: 'encoder.conv1.weight', dims: [3, h.nMels, a], type: F16 },
    { name: 'encoder.conv1.bias', dims: [1, a], type: F32 },
    { name: 'encoder.conv2.weight', dims: [3, a, a], type: F16 },
    { name: 'encoder.conv2.bias', dims: [1, a], type: F32 },
    { name: 'encoder.ln_post.weight', dims: [a], type: F32 },
    { name: 'encoder.ln_post.bias', dims: [a], type: F32 },
  ];
  const block = (prefix: string, n: number, cross: boolean) => {
    const attention = (kind: string) => [
      { name: `${prefix}.${kind}_ln.weight`, dims: [n], type: F32 },
      { name: `${prefix}.${kind}_ln.bias`, dims: [n], type: F32 },
      { name: `${prefix}.${kind}.query.weight`, dims: [n, n], type: F16 },
      { name: `${prefix}.${kind}.query.bias`, dims: [n], type: F32 },
      { name: `${prefix}.${kind}.key.weight`, dims: [n, n], type: F16 },
      { name: `${prefix}.${kind}.value.weight`, dims: [n, n], type: F16 },
      { name: `${prefix}.${kind}.value.bias`, dims: [n], type: F32 },
      { name: `${prefix}.${kind}.out.weight`, dims: [n, n], type: F16 },
      { name: `${prefix}.${kind}.out.bias`, dims: [n], type: F32 },
    ];
    return [
      { name: `${prefix}.mlp_ln.weight`, dims: [n], type: F32 },
      { name: `${prefix}.mlp_ln.bias`, dims: [n], type: F32 },
      { name: `${prefix}.mlp.0.weight`, dims: [n, 4 * n], type: F16 },
      { name: `${prefix}.mlp.0.bias`, dims: [4 * n], type: F32 },
      { name: `${prefix}.mlp.2.weight`, dims: [4 * n, n], type: F16 },
      { name: `${prefix}.mlp.2.bias`, dims: [n], type: F32 },
      ...attention('attn'),
      ...(cross ? attention('cross_attn') : []),
    ] as TensorSpec[];
  };
  for (let i = 0; i < h.nAudioLayer; i++) tensors.push(...block(`encoder.blocks.${i}`, a, false));
  tensors.push(
    { name: 'decoder.positional_embedding', dims: [t, h.nTextCtx], type: F32 },
    { name: 'decoder.token_embedding.weight', dims: [t, VOCAB[kind]], type: F16 },
    { name: 'decoder.ln.weight', dims: [t], type: F32 },
    { name: 'decoder.ln.bias', dims: [t], type: F32 },
  );
  for (let i = 0; i < h.nTextLayer; i++) tensors.push(...block(`decoder.blocks.${i}`, t, true));
  return tensors;
}

/** xorshift32: the same weights from the same seed. */
function randomWords(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}

/**
 * A token's text: GPT-2's single characters where the engine looks them up (ids 0-93 are '!' to '~',
 * 220 is a space: whisper.cpp suppresses a blank start by the space's id), made-up words elsewhere.
 */
function tokenText(id: number): string {
  if (id < 94) return String.fromCharCode(33 + id);
  if (id === 220) return ' ';
  const letters = 'aeioubdfgklmnprstvz';
  let word = ' ';
  let n = id;
  do {
    word += letters[n % letters.length];
    n = Math.floor(n / letters.length);
  } while (n > 0);
  return word;
}

function int32s(...values: number[]): Buffer {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => buffer.writeInt32LE(v, i * 4));
  return buffer;
}

/**
 * The header: magic, hparams, mel filters (triangles over the FFT bins, as a filter bank has) and
 * the vocabulary.
 */
function header(kind: TestModelKind): Buffer {
  const h = TINY;
  const magic = Buffer.alloc(4);
  magic.writeUInt32LE(GGML_MAGIC);
  const hparams = int32s(VOCAB[kind], h.nAudioCtx, h.nAudioState, h.nAudioHead, h.nAudioLayer, h.nTextCtx, h.nTextState, h.nTextHead, h.nTextLayer, h.nMels, F16);
  const filters = Buffer.alloc(8 + h.nMels * N_FFT * 4);
  filters.writeInt32LE(h.nMels, 0);
  filters.writeInt32LE(N_FFT, 4);
  for (let m = 0; m < h.nMels; m++) {
    const centre = ((m + 1) * (N_FFT - 1)) / (h.nMels + 1);
    for (let k = 0; k < N_FFT; k++) filters.writeFloatLE(Math.max(0, 1 - Math.abs(k - centre) / 2) * 0.01, 8 + (m * N_FFT + k) * 4);
  }
  const words = Array.from({ length: WRITTEN_TOKENS }, (_, id) => Buffer.from(tokenText(id), 'utf8'));
  const vocab = Buffer.concat([int32s(WRITTEN_TOKENS), ...words.flatMap((w) => [int32s(w.length), w])]);
  return Buffer.concat([magic, hparams, filters, vocab]);
}

/**
 * A tensor's data: f16 values of magnitude 2^-10 to 2^-5 with a random sign (their bits made
 * directly), or f32 values within ±0.03; layer norms' weights are 1.
 */
function tensorData(spec: TensorSpec, next: () => number): Buffer {
  const count = spec.dims.reduce((a, b) => a * b, 1);
  if (spec.type === F16) {
    const halves = new Uint16Array(count);
    for (let i = 0; i < count; i++) {
      const r = next();
      // sign | exponent 5..10 (2^-10..2^-5) | 10 mantissa bits
      halves[i] = (r & 0x8000) | ((5 + ((r >>> 16) % 6)) << 10) | (r & 0x3ff);
    }
    return Buffer.from(halves.buffer, halves.byteOffset, halves.byteLength);
  }
  const floats = new Float32Array(count);
  const layerNormWeight = /ln(_post)?\.weight$/.test(spec.name);
  for (let i = 0; i < count; i++) floats[i] = layerNormWeight ? 1 : ((next() / 0xffffffff) * 2 - 1) * 0.03;
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

/** The length of the model's header (magic, hparams, mel filters, vocabulary): its weights follow. */
export function tinyEnHeaderBytes(): number {
  return header('tiny.en').length;
}

/** Writes the model to `path`: the header, then each tensor. */
export async function writeRandomModel(path: string, kind: TestModelKind, seed = 1): Promise<void> {
  const next = randomWords(seed);
  const file = await open(path, 'w');
  try {
    await file.write(header(kind));
    for (const spec of tinyTensors(kind)) {
      const name = Buffer.from(spec.name, 'utf8');
      await file.write(Buffer.concat([int32s(spec.dims.length, name.length, spec.type), int32s(...spec.dims), name]));
      await file.write(tensorData(spec, next));
    }
  } finally {
    await file.close();
  }
}

/**
 * The path of a test model (tiny.en's shapes by default, or tiny's; seeded random weights), written
 * into the OS's temporary folder the first time and reused after.
 */
export async function randomTestModel(kind: TestModelKind = 'tiny.en'): Promise<string> {
  const path = join(tmpdir(), `jotline-test-whisper-${kind}-random-v1.bin`);
  if (existsSync(path)) return path;
  const partial = `${path}.${process.pid}.${Date.now()}.partial`;
  try {
    await writeRandomModel(partial, kind);
    await rename(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
  return path;
}
