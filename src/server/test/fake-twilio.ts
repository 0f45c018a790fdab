import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';

// A fake Twilio for tests: its REST API on 127.0.0.1, failing the ways Twilio fails. Tests only.

export const TWILIO_SID = 'AC' + '0'.repeat(32);
export const JOURNAL_NUMBER = '+15555550100';
/** The auth token the test apps are given (TWILIO_AUTH_TOKEN): recordings are served only with it. */
export const TWILIO_TOKEN_FOR_FAKE = 'test-twilio-auth-token';

export interface FakeTwilioMessage {
  sid: string;
  to: string;
  from: string;
  /** Empty once redacted. */
  body: string;
  statusCallback: string | null;
  messagingServiceSid: string | null;
  direction: 'outbound-api' | 'inbound';
  status: string;
  dateCreated: Date;
  /** Null while Twilio still holds an outbound message in its queue. */
  dateSent: Date | null;
  /** Sids of the message's media (MMS), until deleted. */
  media: string[];
}

type FakeFailure = { status: number; code?: number; retryAfter?: string };

export interface FakeTwilio {
  url: string;
  /** Every accepted Messages.json post, oldest first. */
  sent: FakeTwilioMessage[];
  sentTo(phone: string): FakeTwilioMessage[];
  /** The next `times` posts answer with this Twilio error instead of sending (429s with Retry-After when given). */
  failNext(failure: FakeFailure, times?: number): void;
  /** Every request answers with this failure until called with null: the whole API is down. */
  outage(failure: FakeFailure | null): void;
  /** The next `times` posts are never answered, and no message is made (the request is lost). */
  hangNext(times?: number): void;
  /** The next `times` posts make their message, then are never answered. */
  acceptThenHangNext(times?: number): void;
  /** The next `times` posts make their message, then the connection drops without an answer. */
  acceptThenDropNext(times?: number): void;
  /** While true, accepted messages stay queued (no date sent yet), as in a Messaging Service's queue. */
  holdQueued: boolean;
  /** A text a phone sent to the journal number, as Twilio keeps it (with `media` photos); send its sid in the webhook. */
  receive(text: { from: string; to?: string; body: string; media?: number }): FakeTwilioMessage;
  /** Any message Twilio holds, by sid. */
  message(sid: string): FakeTwilioMessage | undefined;
  /** Every request, oldest first: method and path with query. */
  requests: Array<{ method: string; path: string }>;
  /** Twilio's clock, for message dates (the app's manual clock in tests; real time until set). */
  useClock(clock: { now(): Date }): void;
  /** A call's recording, as Twilio keeps it: send its sid and url in the recording callback. */
  record(audio: Buffer, durationSeconds?: number): FakeTwilioRecording;
  /** A recording Twilio holds (deleted ones too), by sid. */
  recording(sid: string): FakeTwilioRecording | undefined;
  /** How the next downloads of a recording (GET …/Recordings/RE….wav) go wrong, one step each, in order. */
  failRecordingDownloads(...steps: RecordingFailure[]): void;
  /** The next deletes of a recording answer with these errors, one each, in order. */
  failRecordingDeletes(...failures: FakeFailure[]): void;
  close(): Promise<void>;
}

export interface FakeTwilioRecording {
  sid: string;
  /** RecordingUrl as Twilio sends it: without an extension (.wav, .mp3 choose the format). */
  url: string;
  audio: Buffer;
  durationSeconds: number;
  /** Set by DELETE. */
  deleted: boolean;
  /** Authorized GETs of its .wav, answered or not. */
  downloads: number;
}

/** A failing download: an error (429 with Retry-After when given), no answer, or half an answer and then nothing. */
export type RecordingFailure = FakeFailure | 'hang' | 'accept-then-hang';

/** Twilio's dates: RFC 2822 in GMT. */
const twilioDate = (date: Date | null) => (date ? date.toUTCString().replace('GMT', '+0000') : null);

function twilioJson(m: FakeTwilioMessage) {
  return {
    sid: m.sid,
    to: m.to,
    from: m.from,
    body: m.body,
    status: m.status,
    direction: m.direction,
    date_created: twilioDate(m.dateCreated),
    date_sent: twilioDate(m.dateSent),
    num_media: String(m.media.length),
    messaging_service_sid: m.messagingServiceSid,
  };
}

/**
 * Twilio's Messages API on 127.0.0.1, answering as Twilio does (JSON, or an error with its code):
 * sending, the list (To, DateSent>, paging), redaction (POST Body= to a message) and media (list,
 * DELETE); and failing as Twilio does: errors, outages, 429 with Retry-After, hangs, and messages
 * made and then never answered.
 */
export async function startFakeTwilio(): Promise<FakeTwilio> {
  const sent: FakeTwilioMessage[] = [];
  const messages = new Map<string, FakeTwilioMessage>();
  const failures: FakeFailure[] = [];
  const hangs: Array<'hang' | 'accept-then-hang' | 'accept-then-drop'> = [];
  const requests: Array<{ method: string; path: string }> = [];
  const held = new Set<ServerResponse>();
  let down: FakeFailure | null = null;
  let clock: { now(): Date } = { now: () => new Date() };
  const newSid = (prefix: string) => prefix + randomBytes(16).toString('hex');
  const recordings = new Map<string, FakeTwilioRecording>();
  const recordingFailures: RecordingFailure[] = [];
  const deleteFailures: FakeFailure[] = [];
  let baseUrl = '';
  const fake: Omit<FakeTwilio, 'url' | 'close'> = {
    sent,
    sentTo: (phone) => sent.filter((m) => m.to === phone),
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    outage(failure) {
      down = failure;
    },
    hangNext: (times = 1) => void hangs.push(...Array<'hang'>(times).fill('hang')),
    acceptThenHangNext: (times = 1) => void hangs.push(...Array<'accept-then-hang'>(times).fill('accept-then-hang')),
    acceptThenDropNext: (times = 1) => void hangs.push(...Array<'accept-then-drop'>(times).fill('accept-then-drop')),
    holdQueued: false,
    receive(text) {
      const now = clock.now();
      const message: FakeTwilioMessage = {
        sid: newSid(text.media ? 'MM' : 'SM'),
        to: text.to ?? JOURNAL_NUMBER,
        from: text.from,
        body: text.body,
        statusCallback: null,
        messagingServiceSid: null,
        direction: 'inbound',
        status: 'received',
        dateCreated: now,
        dateSent: now,
        media: Array.from({ length: text.media ?? 0 }, () => newSid('ME')),
      };
      messages.set(message.sid, message);
      return message;
    },
    message: (sid) => messages.get(sid),
    requests,
    useClock(c) {
      clock = c;
    },
    record(audio, durationSeconds = 1) {
      const sid = newSid('RE');
      const recording = { sid, url: `${baseUrl}/2010-04-01/Accounts/${TWILIO_SID}/Recordings/${sid}`, audio, durationSeconds, deleted: false, downloads: 0 };
      recordings.set(sid, recording);
      return recording;
    },
    recording: (sid) => recordings.get(sid),
    failRecordingDownloads: (...steps) => void recordingFailures.push(...steps),
    failRecordingDeletes: (...failures) => void deleteFailures.push(...failures),
  };

  const create = (form: URLSearchParams): FakeTwilioMessage => {
    const now = clock.now();
    const message: FakeTwilioMessage = {
      sid: newSid('SM'),
      to: form.get('To') ?? '',
      from: form.get('From') ?? '',
      body: form.get('Body') ?? '',
      statusCallback: form.get('StatusCallback'),
      messagingServiceSid: form.get('MessagingServiceSid'),
      direction: 'outbound-api',
      status: fake.holdQueued ? 'queued' : 'sent',
      dateCreated: now,
      dateSent: fake.holdQueued ? null : now,
      media: [],
    };
    sent.push(message);
    messages.set(message.sid, message);
    return message;
  };

  const list = (query: URLSearchParams) => {
    const to = query.get('To');
    const sentOn = query.get('DateSent>');
    const size = Number(query.get('PageSize') ?? 50);
    const page = Number(query.get('Page') ?? 0);
    const matching = [...messages.values()]
      .filter((m) => (!to || m.to === to) && (!sentOn || (m.dateSent !== null && m.dateSent.toISOString().slice(0, 10) >= sentOn)))
      .sort((a, b) => b.dateCreated.getTime() - a.dateCreated.getTime());
    const more = matching.length > (page + 1) * size;
    const next = new URLSearchParams(query);
    next.set('Page', String(page + 1));
    return {
      messages: matching.slice(page * size, (page + 1) * size).map(twilioJson),
      page,
      page_size: size,
      next_page_uri: more ? `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json?${next}` : null,
    };
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://twilio.test');
      requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}` });
      const form = new URLSearchParams(raw);
      const answer = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body === undefined ? undefined : JSON.stringify(body));
      const refuse = (f: FakeFailure) => answer(f.status, { code: f.code, message: 'refused', status: f.status }, f.retryAfter ? { 'retry-after': f.retryAfter } : {});
      const notFound = () => answer(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      if (down) return refuse(down);
      const path = url.pathname.replace(/^\/2010-04-01\/Accounts\/[^/]+/, '');
      const one = /^\/Messages\/(\w+)\.json$/.exec(path);
      const media = /^\/Messages\/(\w+)\/Media\.json$/.exec(path);
      const medium = /^\/Messages\/(\w+)\/Media\/(\w+)\.json$/.exec(path);
      const recordingFile = /^\/Recordings\/(RE\w+)\.wav$/.exec(path);
      const recordingResource = /^\/Recordings\/(RE\w+)\.json$/.exec(path);
      if (recordingFile || recordingResource) {
        // Recordings are served only to the account: HTTP Basic with its SID and auth token.
        const expected = `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN_FOR_FAKE}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return answer(401, { code: 20003, message: 'Authenticate', status: 401 });
        const recording = recordings.get((recordingFile ?? recordingResource)![1]!);
        if (req.method === 'GET' && recordingFile) {
          if (!recording || recording.deleted) return notFound();
          recording.downloads++;
          const step = recordingFailures.shift();
          if (step === 'hang') return void held.add(res);
          if (step === 'accept-then-hang') {
            res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': recording.audio.length });
            res.write(recording.audio.subarray(0, Math.floor(recording.audio.length / 2)));
            return void held.add(res);
          }
          if (step) return refuse(step);
          return res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': recording.audio.length }).end(recording.audio);
        }
        if (req.method === 'DELETE' && recordingResource) {
          if (!recording || recording.deleted) return notFound();
          const failure = deleteFailures.shift();
          if (failure) return refuse(failure);
          recording.deleted = true;
          return answer(204);
        }
      }
      if (req.method === 'POST' && path === '/Messages.json') {
        const failure = failures.shift();
        if (failure) return refuse(failure);
        const hang = hangs.shift();
        if (hang === 'hang') return void held.add(res);
        const message = create(form);
        if (hang === 'accept-then-hang') return void held.add(res);
        if (hang === 'accept-then-drop') return void res.socket?.destroy();
        // Twilio answers a new message as queued, whatever happens to it next.
        return answer(201, { ...twilioJson(message), status: 'queued' });
      }
      if (req.method === 'GET' && path === '/Messages.json') return answer(200, list(url.searchParams));
      if (req.method === 'POST' && one) {
        const message = messages.get(one[1]!);
        if (!message) return notFound();
        if (form.get('Body') !== '') return answer(400, { code: 21619, message: 'A text message body is required', status: 400 });
        if (message.dateSent === null) return answer(400, { message: 'Cannot redact a message Twilio has not sent yet', status: 400 });
        message.body = '';
        return answer(200, twilioJson(message));
      }
      if (req.method === 'GET' && media) {
        const message = messages.get(media[1]!);
        if (!message) return notFound();
        return answer(200, { media_list: message.media.map((sid) => ({ sid, parent_sid: message.sid, content_type: 'image/png' })), next_page_uri: null });
      }
      if (req.method === 'DELETE' && medium) {
        const message = messages.get(medium[1]!);
        if (!message?.media.includes(medium[2]!)) return notFound();
        message.media = message.media.filter((sid) => sid !== medium[2]);
        return answer(204);
      }
      notFound();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  baseUrl = `http://127.0.0.1:${port}`;
  // The same object: create() reads the holdQueued the test sets.
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.socket?.destroy();
        server.close(() => resolve());
      }),
  });
}
