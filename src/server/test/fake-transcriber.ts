import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

// A fake OpenAI-compatible transcription API for tests: `POST /v1/audio/transcriptions` on
// 127.0.0.1, reading the multipart form as the real one does and failing the ways it fails. Tests only.

export const FAKE_TRANSCRIBE_KEY = 'sk-test-transcription-key';
export const FAKE_TRANSCRIBE_MODEL = 'whisper-1';

/** How the next request goes wrong (what hosted and self-hosted servers do). */
export type TranscriberFailure =
  | { status: 500 | 502 | 503 | 504 | 400 | 401 | 403 | 413 }
  /** 429, with Retry-After as given (seconds or an HTTP date). */
  | { status: 429; retryAfter?: string }
  /** Never answers. */
  | { hang: 'before-headers' }
  /** Sends 200 and its headers, then never finishes the body. */
  | { hang: 'after-headers' };

export interface TranscriptionRequest {
  model: string;
  language: string | null;
  responseFormat: string | null;
  /** Seconds of audio in the WAV that was sent (16 kHz mono 16-bit). */
  seconds: number;
  sampleRate: number;
  channels: number;
  /** What was answered: a status, 'hang', or 200. */
  answered: number | 'hang';
}

export interface FakeTranscriber {
  /** The base, as TRANSCRIBE_URL. */
  url: string;
  /** Every request that reached the endpoint, oldest first. */
  requests: TranscriptionRequest[];
  /** The next `times` requests fail so. */
  failNext(failure: TranscriberFailure, times?: number): void;
  /** Every request fails so, until called with null. */
  outage(failure: TranscriberFailure | null): void;
  /** The text the next request is answered with (in order, one per request). */
  answerNext(...texts: string[]): void;
  /** The text for audio of this many whole seconds, when no answerNext is waiting. */
  answerFor(seconds: number, text: string): void;
  /** Each answer takes this long (a service busy transcribing), until called with 0. */
  answerAfter(ms: number): void;
  /** The most requests it was working on at one moment. */
  mostAtOnce(): number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A RIFF/WAVE file's format and length, or null when it is not one. */
function readWav(bytes: Buffer): { sampleRate: number; channels: number; seconds: number } | null {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return null;
  let offset = 12;
  let format: { channels: number; sampleRate: number; byteRate: number } | null = null;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') format = { channels: bytes.readUInt16LE(offset + 10), sampleRate: bytes.readUInt32LE(offset + 12), byteRate: bytes.readUInt32LE(offset + 16) };
    if (id === 'data' && format) {
      // ffmpeg writing to a pipe cannot go back to fill in the length: the data runs to the end.
      const length = size === 0 || size === 0xffffffff || offset + 8 + size > bytes.length ? bytes.length - offset - 8 : size;
      return { sampleRate: format.sampleRate, channels: format.channels, seconds: length / format.byteRate };
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}

/** Starts the fake on 127.0.0.1; its URL is the API base (`…/v1`). */
export async function startFakeTranscriber(options: { key?: string | null; model?: string } = {}): Promise<FakeTranscriber> {
  const key = options.key === undefined ? FAKE_TRANSCRIBE_KEY : options.key;
  const model = options.model ?? FAKE_TRANSCRIBE_MODEL;
  const failures: TranscriberFailure[] = [];
  let down: TranscriberFailure | null = null;
  const texts: string[] = [];
  const byLength = new Map<number, string>();
  const held = new Set<ServerResponse>();
  const requests: TranscriptionRequest[] = [];
  let delayMs = 0;
  let working = 0;
  let mostWorking = 0;

  const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
    answer(res, status, { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error' } }, headers);

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return error(res, 404, 'Not found');
      let form: FormData;
      try {
        form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
      } catch {
        return error(res, 400, 'Could not parse multipart form');
      }
      const file = form.get('file');
      if (form.get('model') !== model) return error(res, 400, `The model \`${String(form.get('model'))}\` does not exist.`);
      if (!(file instanceof Blob)) return error(res, 400, 'file is required');
      const wav = readWav(Buffer.from(await file.arrayBuffer()));
      if (!wav) return error(res, 400, 'Invalid file format.');
      const request: TranscriptionRequest = {
        model: String(form.get('model')),
        language: (form.get('language') as string | null) ?? null,
        responseFormat: (form.get('response_format') as string | null) ?? null,
        seconds: wav.seconds,
        sampleRate: wav.sampleRate,
        channels: wav.channels,
        answered: 200,
      };
      requests.push(request);
      if (key !== null && req.headers.authorization !== `Bearer ${key}`) {
        request.answered = 401;
        return error(res, 401, 'Incorrect API key provided.');
      }
      const failure = failures.shift() ?? down;
      if (failure && 'hang' in failure) {
        request.answered = 'hang';
        held.add(res);
        if (failure.hang === 'after-headers') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"text": "');
        }
        return;
      }
      if (failure) {
        request.answered = failure.status;
        const headers: Record<string, string> = failure.status === 429 && failure.retryAfter !== undefined ? { 'retry-after': failure.retryAfter } : {};
        return error(res, failure.status, failure.status === 413 ? 'Maximum content size limit exceeded.' : 'The server had an error.', headers);
      }
      const text = texts.shift() ?? byLength.get(Math.round(wav.seconds)) ?? `A voice note of ${Math.round(wav.seconds)} seconds.`;
      working++;
      mostWorking = Math.max(mostWorking, working);
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      working--;
      answer(res, 200, { text });
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext: (failure, times = 1) => void failures.push(...Array<TranscriberFailure>(times).fill(failure)),
    outage: (failure) => void (down = failure),
    answerNext: (...next) => void texts.push(...next),
    answerFor: (seconds, text) => void byLength.set(seconds, text),
    answerAfter: (ms) => void (delayMs = ms),
    mostAtOnce: () => mostWorking,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
