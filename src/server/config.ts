import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { makePrivateDir } from './private-files';

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** A URL, or null when it is none (zod checks run on, after a failed one). */
function parsedUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:|file:)/, 'must start with postgres://, sqlite: or file:')
    .optional(),
  STORAGE_URL: z.string().optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  /** The key MASTER_KEY replaces, still accepted for reading until `jotline keys rotate` finishes. */
  MASTER_KEY_PREVIOUS: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  TRUST_PROXY: flag,
  SMS_PROVIDER: z.enum(['simulator', 'twilio']).default('simulator'),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().optional(),
  TWILIO_API_URL: z.url().default('https://api.twilio.com'),
  /** Send through this Messaging Service (a pool of numbers) instead of from TWILIO_FROM. */
  TWILIO_MESSAGING_SERVICE_SID: z.string().regex(/^MG[0-9a-fA-F]{32}$/, 'must be MG followed by 32 hex digits').optional(),
  /** Redact each text's body (and photos) at Twilio once it is processed or delivered. */
  TWILIO_REDACT: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /** Texts a second for all instances together (Twilio only); unset, as fast as Twilio takes them. */
  SMS_SEND_RATE: z.coerce.number().positive().max(10_000).optional(),
  /** Verification texts an hour for all instances together; past it sign-ups still succeed and their texts wait. */
  SMS_VERIFICATION_HOURLY_MAX: z.coerce.number().int().positive().default(1000),
  /** Calls to the journal number a user may record a day (their own day); past it a caller hears so. */
  VOICE_CALLS_PER_DAY: z.coerce.number().int().min(1).max(1000).default(10),
  JOURNAL_NUMBER: z.string().regex(/^\+1\d{10}$/, 'must be +1 followed by 10 digits').default('+15555550100'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('Jotline <hello@jotline.app>'),
  BILLING_PROVIDER: z.enum(['local', 'stripe']).default('local'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICE_MONTHLY: z.string().optional(),
  STRIPE_PRICE_YEARLY: z.string().optional(),
  STRIPE_API_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Human-readable log lines (development only); unset, when stdout is a terminal. */
  LOG_PRETTY: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  /** Bearer token for GET /metrics; unset, /metrics always answers 401. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (openssl rand -hex 24)').optional(),
  /** Run the background scheduler (outbound sender, sweeps, reminders) in this process. */
  JOBS: z.enum(['on', 'off']).default('on'),
  /**
   * Open connections one instance accepts (event streams and idle keep-alive sockets included);
   * more are closed as they arrive. Sized in the README.
   */
  MAX_CONNECTIONS: z.coerce.number().int().min(10).max(1_000_000).default(2_000),
  /** Memory for decrypted journals held for search, per instance, in megabytes. */
  SEARCH_CACHE_MB: z.coerce.number().int().min(1).max(65_536).default(256),
  /** The longest voice note (a call, an MMS, the web), in seconds. */
  VOICE_MAX_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  /** An OpenAI-compatible transcription API's base (…/v1); unset, voice notes are kept untranscribed. */
  TRANSCRIBE_URL: z
    .url()
    .refine((v) => /^https?:$/.test(parsedUrl(v)?.protocol ?? ''), 'must be an http:// or https:// URL: the API base, e.g. https://api.openai.com/v1')
    .refine((v) => !parsedUrl(v)?.search && !parsedUrl(v)?.hash, 'must be the API base without a query or fragment, e.g. https://api.openai.com/v1')
    .optional(),
  /** Sent as `Authorization: Bearer …` to TRANSCRIBE_URL; unset for a self-hosted server without one. */
  TRANSCRIBE_API_KEY: z.string().optional(),
  /** The model the transcription API is asked for. */
  TRANSCRIBE_MODEL: z.string().min(1).default('whisper-1'),
  /** The spoken language (ISO 639-1, e.g. en); unset, the service (or Whisper on this server) detects it. */
  TRANSCRIBE_LANGUAGE: z.string().regex(/^[a-z]{2,3}$/, 'must be a language code such as en or de').optional(),
  /** How long one transcription may take (a request, answer included; on this server, its work) before it is retried. */
  TRANSCRIBE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** A Whisper model file (ggml, from whisper.cpp): voice notes are transcribed on this server, the audio never leaves it. */
  WHISPER_MODEL: z.string().min(1).optional(),
});

export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the environment. Throws a ConfigError that names every bad variable.
 * In development a master key is generated into DATA_DIR on first start; production requires one.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blanksRemoved = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(blanksRemoved);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const production = e.NODE_ENV === 'production';
  if (e.SMS_PROVIDER === 'twilio') {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const) {
      if (!e[name]) problems.push(`${name}: required when SMS_PROVIDER=twilio`);
    }
    if (!e.TWILIO_FROM && !e.TWILIO_MESSAGING_SERVICE_SID) problems.push('TWILIO_FROM: required when SMS_PROVIDER=twilio (or set TWILIO_MESSAGING_SERVICE_SID)');
  }
  if (e.BILLING_PROVIDER === 'stripe') {
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_MONTHLY', 'STRIPE_PRICE_YEARLY'] as const) {
      if (!e[name]) problems.push(`${name}: required when BILLING_PROVIDER=stripe`);
    }
  }
  if (e.STORAGE_URL?.startsWith('s3://')) {
    if (!parseS3Url(e.STORAGE_URL)) {
      problems.push('STORAGE_URL: must be s3://bucket (or s3://bucket/prefix) with a valid bucket name: 3-63 lowercase letters, digits, dots or hyphens');
    }
    for (const name of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!e[name]) problems.push(`${name}: required when STORAGE_URL is s3://…`);
    }
  }
  if (production) {
    if (e.SMS_PROVIDER === 'simulator') problems.push('SMS_PROVIDER: the simulator is refused in production; set twilio');
    if (!e.SMTP_URL) problems.push('SMTP_URL: required in production (the mail simulator is refused)');
    if (e.BILLING_PROVIDER === 'local') problems.push('BILLING_PROVIDER: the local simulator is refused in production; set stripe');
    if (!e.MASTER_KEY) problems.push('MASTER_KEY: required in production (32 bytes, base64)');
    if (!e.PUBLIC_URL) problems.push('PUBLIC_URL: required in production');
  }
  if (e.MASTER_KEY_PREVIOUS && !e.MASTER_KEY) problems.push('MASTER_KEY_PREVIOUS: set only beside MASTER_KEY (the new key)');
  if (e.WHISPER_MODEL && e.TRANSCRIBE_URL) {
    problems.push('WHISPER_MODEL: set either WHISPER_MODEL (transcribe on this server) or TRANSCRIBE_URL (a transcription service), not both');
  }
  if (problems.length) throw new ConfigError(problems);
  return toConfig(e);
}

function toConfig(e: z.infer<typeof envSchema>) {
  const dataDir = resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${join(dataDir, 'jotline.db')}`,
    storageUrl: e.STORAGE_URL ?? join(dataDir, 'photos'),
    storage: storageSettings(e, dataDir),
    masterKey: e.MASTER_KEY ? Buffer.from(e.MASTER_KEY, 'base64') : undefined,
    previousMasterKey: e.MASTER_KEY_PREVIOUS ? Buffer.from(e.MASTER_KEY_PREVIOUS, 'base64') : undefined,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY,
    metricsToken: e.METRICS_TOKEN,
    jobs: e.JOBS === 'on',
    searchCacheBytes: e.SEARCH_CACHE_MB * 1024 * 1024,
    voiceCallsPerDay: e.VOICE_CALLS_PER_DAY,
    maxConnections: e.MAX_CONNECTIONS,
    journalNumber: e.JOURNAL_NUMBER,
    verificationTextsPerHour: e.SMS_VERIFICATION_HOURLY_MAX,
    voice: {
      maxSeconds: e.VOICE_MAX_SECONDS,
      /** Whether voice notes are transcribed (TRANSCRIBE_URL or WHISPER_MODEL is set); without, they are kept untranscribed. */
      transcribes: Boolean(e.TRANSCRIBE_URL || e.WHISPER_MODEL),
    },
    /** The OpenAI-compatible transcription API (voice/transcription/client.ts); null without TRANSCRIBE_URL. */
    transcription: e.TRANSCRIBE_URL
      ? {
          url: e.TRANSCRIBE_URL.replace(/\/+$/, ''),
          apiKey: e.TRANSCRIBE_API_KEY,
          model: e.TRANSCRIBE_MODEL,
          language: e.TRANSCRIBE_LANGUAGE,
          timeoutMs: e.TRANSCRIBE_TIMEOUT_SECONDS * 1000,
        }
      : null,
    /**
     * Whisper on this server (voice/transcription/local.ts); null without WHISPER_MODEL. The engine's
     * work on one recording is bounded by TRANSCRIBE_TIMEOUT_SECONDS.
     */
    whisper: e.WHISPER_MODEL
      ? {
          modelPath: resolve(e.WHISPER_MODEL),
          language: e.TRANSCRIBE_LANGUAGE,
          timeoutMs: e.TRANSCRIBE_TIMEOUT_SECONDS * 1000,
        }
      : null,
    sms:
      e.SMS_PROVIDER === 'twilio'
        ? ({
            provider: 'twilio',
            accountSid: e.TWILIO_ACCOUNT_SID!,
            authToken: e.TWILIO_AUTH_TOKEN!,
            from: e.TWILIO_FROM ?? '',
            messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID,
            apiUrl: e.TWILIO_API_URL.replace(/\/+$/, ''),
            redact: e.TWILIO_REDACT,
            sendRate: e.SMS_SEND_RATE,
          } as const)
        : ({ provider: 'simulator' } as const),
    mail: e.SMTP_URL
      ? ({ provider: 'smtp', url: e.SMTP_URL, from: e.MAIL_FROM } as const)
      : ({ provider: 'simulator', from: e.MAIL_FROM } as const),
    billing:
      e.BILLING_PROVIDER === 'stripe'
        ? ({
            provider: 'stripe',
            secretKey: e.STRIPE_SECRET_KEY!,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
            priceMonthly: e.STRIPE_PRICE_MONTHLY!,
            priceYearly: e.STRIPE_PRICE_YEARLY!,
            apiUrl: e.STRIPE_API_URL,
          } as const)
        : ({ provider: 'local' } as const),
  };
}

/** `s3://bucket` or `s3://bucket/prefix`: the bucket and the key prefix ('' or ending in '/'). */
function parseS3Url(url: string): { bucket: string; prefix: string } | null {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!match) return null;
  const bucket = match[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) return null;
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket, prefix: prefix ? `${prefix}/` : '' };
}

/** Where photos are kept: a directory, or an S3-compatible bucket (checked by loadConfig). */
function storageSettings(e: z.infer<typeof envSchema>, dataDir: string) {
  const s3 = e.STORAGE_URL?.startsWith('s3://') ? parseS3Url(e.STORAGE_URL) : null;
  if (!s3) {
    return { provider: 'disk', directory: (e.STORAGE_URL ?? join(dataDir, 'photos')).replace(/^file:(\/\/)?/, '') } as const;
  }
  return {
    provider: 's3',
    bucket: s3.bucket,
    prefix: s3.prefix,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    // Most S3-compatible servers want bucket-in-path addressing; AWS itself prefers virtual hosts.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
  } as const;
}

/**
 * The master key: from configuration, or (development only) generated once into DATA_DIR so
 * a restart can still read what was written.
 */
export function resolveMasterKey(config: Config): Buffer {
  if (config.masterKey) return config.masterKey;
  if (config.isProduction) throw new ConfigError(['MASTER_KEY: required in production (32 bytes, base64)']);
  const file = join(config.dataDir, 'master.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  makePrivateDir(config.dataDir);
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600 });
  return key;
}
