import type { Generated, Selectable, Updateable } from 'kysely';

// Portable types for SQLite and PostgreSQL alike: ids are uuid text, timestamps are ISO-8601 UTC
// text (they sort as strings), dates are YYYY-MM-DD text, booleans are 0/1 integers, JSON is text.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  is_admin: Generated<number>;
  /** When the owner opened the link e-mailed at sign-up; null until then (reset mails wait for it). */
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProfilesTable {
  id: string; // the user id
  phone_number: string;
  phone_verified: Generated<number>;
  timezone: string;
  created_at: string;
  is_opted_out: Generated<number>;
  reminder_enabled: Generated<number>;
  reminder_time: Generated<string>;
  /** No longer read (migration 0900): the account's one zone is `timezone`. */
  reminder_timezone: Generated<string>;
  weekly_recap_enabled: Generated<number>;
  prompts_enabled: Generated<number>;
  /** The daily reminder mentions an entry from this day in earlier years (1 by default). */
  on_this_day_enabled: Generated<number>;
  next_reminder_at: string | null;
  /** PAUSE by text: no automated texts until this instant (ISO-8601); null when not paused. */
  paused_until: string | null;
  /** When the next weekly recap is due (Sunday 18:00 in timezone); null until computed. */
  next_recap_at: Generated<string | null>;
  key_salt: string;
  sms_consent_at: string | null;
  updated_at: string;
  /** A pending sign-up's code, which its phone's owner can reply with to pick it (auth/phone-claims.ts). */
  verification_code: string | null;
  /** When a pending sign-up lapses: 10 minutes after its verification text is due. */
  verification_expires_at: string | null;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  family_id: string;
  /** Set when this token was exchanged for the next one; presenting it again is reuse. */
  rotated_at: string | null;
  revoked_at: string | null;
  expires_at: string;
  created_at: string;
}

export type OneTimeTokenPurpose = 'phone_verification' | 'sign_in_link' | 'recovery' | 'email_verification';

interface OneTimeTokensTable {
  id: string;
  user_id: string;
  purpose: OneTimeTokenPurpose;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface SmsMessagesTable {
  id: string;
  user_id: string | null;
  direction: 'inbound' | 'outbound';
  /** Twilio's MessageSid; unique, so a redelivered webhook is a no-op. */
  provider_message_id: string | null;
  kind: string;
  /** Unique per automated text (`reminder:USER:DATE`) so retries never double-send. */
  dedupe_key: string | null;
  status: string;
  from_number: string;
  to_number: string;
  /** Encrypted (ENC:…); never plaintext at rest. */
  body: string | null;
  /** JSON list of media URLs (inbound MMS). */
  media: string | null;
  segments: number | null;
  processed: Generated<number>;
  processing_ms: number | null;
  error_code: string | null;
  error_message: string | null;
  entry_id: string | null;
  entry_date: string | null;
  attempts: Generated<number>;
  claimed_at: string | null;
  /** Not sent before this; a scheduled text's due time, which orders the queue. */
  send_after: string | null;
  /** Outbound: 0 for a reply someone waits for, 1 for a scheduled text (sent after the replies). */
  priority: Generated<number>;
  /** Outbound: past this the text is pointless (a reminder hours late, a lapsed link) and is dropped. */
  expires_at: string | null;
  /** Outbound: a request may have reached the provider then, unanswered; it is looked up before resending. */
  unconfirmed_since: string | null;
  /** When the provider's copy of the body (and media) was redacted. */
  redacted_at: string | null;
  /** The provider's copy is redacted from then on (lease and backoff); null with attempts: given up. */
  redact_after: string | null;
  redact_attempts: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** The send slots all instances share (SMS_SEND_RATE): one row. */
interface SmsSendBudgetTable {
  id: string;
  /** Microseconds since the epoch when the next send slot is free (a string from PostgreSQL). */
  next_free_at: number | string;
}

interface SecurityEventsTable {
  id: string;
  event_type: string;
  identifier: string | null;
  details: string | null;
  severity: 'low' | 'medium' | 'high';
  user_id: string | null;
  ip: string | null;
  created_at: string;
}

export interface SubscribersTable {
  id: string;
  user_id: string;
  email: string;
  is_trial: Generated<number>;
  trial_end: string | null;
  subscribed: Generated<number>;
  subscription_tier: string | null;
  subscription_end: string | null;
  subscription_status: string | null;
  provider_customer_id: string | null;
  provider_subscription_id: string | null;
  subscribed_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

interface BillingEventsTable {
  id: string;
  /** The provider's event id (unique: a redelivery is ignored). */
  provider_event_id: string;
  type: string;
  customer_id: string | null;
  received_at: string;
}

interface RateLimitHitsTable {
  id: string;
  key: string;
  created_at: string;
}

export interface JournalEntriesTable {
  id: string;
  user_id: string;
  /** Encrypted (ENC:…). */
  content: string;
  /** Encrypted; null when the entry has no title. */
  title: string | null;
  /** Encrypted JSON list of tags. */
  tags: string;
  source: 'web' | 'sms';
  /** YYYY-MM-DD in the user's timezone. */
  entry_date: string;
  word_count: number;
  created_at: string;
  updated_at: string;
  /** SMS entries: 0 for the day's first, 1, 2… for continuations past the content limit; 0 for web. */
  sms_part: Generated<number>;
  /** The IANA zone the entry's time is shown in: the account's as it was written, or an imported entry's own. */
  time_zone: Generated<string | null>;
  /** Vault entries: JSON list of base64 sealed boxes (docs/vault.md); null when the server can read it. */
  sealed: string | null;
  /** Raised by every write to the entry (changes.ts); a web save based on an older one is refused. */
  version: Generated<number>;
}

/** A new entry's `Idempotency-Key`, kept 24 hours: the same key answers the entry it made. */
export interface EntryIdempotencyKeysTable {
  user_id: string;
  key: string;
  entry_id: string;
  created_at: string;
}

interface JournalPhotosTable {
  id: string;
  entry_id: string;
  user_id: string;
  /** Storage key of the full image (metadata stripped). */
  file_path: string;
  /** Storage key of the small webp rendition. */
  thumb_path: string;
  file_name: string;
  file_size: number;
  mime_type: string;
  /** Order within the entry, as added. */
  position: number;
  created_at: string;
}

export type RecordingOrigin = 'call' | 'mms' | 'web' | 'import';
export type RecordingTranscriptStatus = 'pending' | 'done' | 'failed';

interface JournalRecordingsTable {
  id: string;
  user_id: string;
  entry_id: string;
  /** Storage key of the audio, encrypted with the owner's key (or sealed to the vault's public key). */
  file_path: string;
  mime_type: string;
  /** From the container (or the decoded length when the container has none). */
  duration_seconds: number;
  /** Bytes of the audio as received. */
  file_size: number;
  origin: RecordingOrigin;
  /** 1: the audio and the transcript are sealed to the user's vault public key; the server cannot open them. */
  sealed: number;
  /** Where it came from (`call:<RecordingSid>`, `mms:<MessageSid>:<index>`, an import's key): unique per user. */
  source_key: string | null;
  /** Encrypted like entry text (ENC:…), or for a vault user a base64 sealed box of {"transcript": …}; null until transcribed. */
  transcript: string | null;
  transcript_status: RecordingTranscriptStatus;
  transcribe_attempts: Generated<number>;
  /** When a pending recording is due (the job reads status 'pending' and this <= now). */
  transcribe_next_at: string | null;
  /** The running claim's time; an old one is taken over. */
  transcribe_claimed_at: string | null;
  /** The last failure's kind (no transcript, no audio): for the logs and the admin's counts. */
  transcribe_error: string | null;
  /** Order within the entry, as added (oldest first). */
  position: number;
  received_at: string;
  created_at: string;
}

interface JournalRevisionsTable {
  user_id: string;
  revision: number;
}

/** An inbound text (sms_messages.id) that is already in the journal, and where it went. */
export interface JournalSmsAppliedTable {
  message_id: string;
  user_id: string;
  entry_id: string;
  entry_date: string;
  applied_at: string;
}

/** What a journaled text added (for UNDO): a length, a keyed hash and ids, never the text itself. */
export interface JournalSmsUndoTable {
  message_id: string;
  user_id: string;
  /** The local day (YYYY-MM-DD) the text arrived on. */
  received_on: string;
  /** The entry the text ended in. */
  entry_id: string;
  /** That entry's content length before the text; 0 when the text started the entry. */
  length_before: number;
  /** Keyed hash of that entry's content right after the text: unchanged means not edited since. */
  content_hash: string;
  /** JSON array: entries the text started (the day's first SMS entry, continuations). */
  created_entry_ids: string;
  /** JSON array: photos the text added. */
  photo_ids: string;
  applied_at: string;
  /** The journal revision the text made (orders one user's texts). */
  revision: number;
  undone_at: string | null;
  /** The UNDO text (sms_messages.id) that took it out. */
  undone_by: string | null;
  /** A Vault entry's word count before the text (its words are sealed: they cannot be counted again); null otherwise. */
  words_before: number | null;
}

/** An imported entry and where it came from (a keyed hash), so the same file imports once. */
export interface JournalImportsTable {
  user_id: string;
  fingerprint: string;
  entry_id: string;
  imported_at: string;
}

/** An import (import/): the upload, encrypted in parts in the photo store, worked through in chunks. */
export interface ImportJobsTable {
  id: string;
  user_id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  file_bytes: number;
  /** How many encrypted parts the upload is stored as. */
  file_parts: number;
  format: string | null;
  /** Entries in the file (after splitting ones past the entry limit). */
  total: Generated<number>;
  /** How many of the file's entries are done: a restart goes on from here. */
  position: Generated<number>;
  /**
   * Where the last chunk began while its voice recordings are still being added (they are added
   * after its entries commit); null once they are. A restart reads from here to add what they lack.
   */
  audios_from: number | null;
  imported: Generated<number>;
  skipped: Generated<number>;
  photos_imported: Generated<number>;
  photos_skipped: Generated<number>;
  /** Encrypted JSON (`ENC:`…, the owner's key): why entries and photos were left out, with a few examples each. */
  reasons: string | null;
  /** Why a failed import failed, in the user's words (never journal text). */
  error: string | null;
  /** Claims so far; a chunk commits only under the claim that wrote it. */
  attempts: Generated<number>;
  /** When the running claim last showed life; an old one is taken over. */
  claimed_at: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** One admin SMS test (spec 3): phone masked, content kept only as a short preview. */
interface SmsTestLogsTable {
  id: string;
  test_type: string;
  /** Masked to the last four digits. */
  phone_number: string;
  /** At most a 100-character preview of the test text. */
  message_content: string;
  success: number;
  webhook_status: string | null;
  /** JSON: steps, summary and timing. */
  webhook_response: string | null;
  /** JSON: what was sent (type, length, masked phone). */
  payload: string | null;
  /** The admin who ran the test. */
  created_by: string | null;
  created_at: string;
}

/** A single-use ticket that opens the realtime stream (GET /api/events?ticket=); only its hash is kept. */
interface EventTicketsTable {
  id: string;
  token_hash: string;
  user_id: string;
  /** The refresh-token family (session) the ticket was issued under; the stream ends with it. */
  session_family: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A master key rotation (`jotline keys rotate`) and how far it got. */
interface KeyRotationsTable {
  /** `FROM>TO` (the two key ids). */
  id: string;
  from_key_id: string;
  to_key_id: string;
  /** Every user up to this id (in id order) is re-encrypted. */
  users_done_through: string | null;
  /** Every stored message body up to this id is re-encrypted. */
  messages_done_through: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A secret kept in the database, encrypted under the master key (keys/encrypted-secrets.ts). */
interface SealedSecretsTable {
  /** What the secret is for, e.g. `stored-hashes`. */
  name: string;
  /** Encrypted with the secrets subject: `ENC:` + key id + `:` + base64. */
  value: string;
  created_at: string;
  /** When it was made or last re-encrypted. */
  updated_at: string;
}

/** A user's Vault (docs/vault.md): their public key and the private key as the browser wrapped it. */
export interface VaultsTable {
  user_id: string;
  /** Base64 of the X25519 public key. */
  public_key: string;
  /** JSON, opaque to the server. */
  wrapped_keys: string;
  state: 'sealing' | 'on' | 'unsealing';
  created_at: string;
  updated_at: string;
}

/** A photo file replaced by its sealed (or opened) copy, to delete; kept until it is. */
interface VaultStaleFilesTable {
  storage_key: string;
  user_id: string;
  created_at: string;
}

/** A session (refresh-token family): how it was signed in, and from where. */
interface AuthSessionsTable {
  id: string;
  user_id: string;
  /** password, link, recovery, passkey or mfa (a first factor completed by a second). */
  method: string;
  /** 1 when signed in with a passkey or a second factor. */
  mfa: Generated<number>;
  /** "Chrome on macOS", from the user agent; null when unknown. */
  device: string | null;
  created_at: string;
  last_seen_at: string;
  /** When the person last proved it is them in this session (sign-in, or auth/fresh-proof.ts); null before it was kept. */
  proved_at: string | null;
}

interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url, as WebAuthn names it. */
  credential_id: string;
  /** base64url COSE public key. */
  public_key: string;
  counter: Generated<number>;
  /** JSON list, or null. */
  transports: string | null;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

interface WebauthnChallengesTable {
  id: string;
  challenge: string;
  purpose: 'register' | 'sign_in' | 'mfa';
  user_id: string | null;
  mfa_challenge_id: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

interface TotpFactorsTable {
  user_id: string;
  secret: string;
  confirmed_at: string | null;
  last_step: number | null;
  created_at: string;
}

interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

interface MfaChallengesTable {
  id: string;
  user_id: string;
  token_hash: string;
  method: string;
  failures: Generated<number>;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A call to the journal number and its recording's way into the journal (voice/calls/). */
export interface VoiceCallsTable {
  id: string;
  /** Twilio's id for the call: a redelivered webhook is the same call. */
  call_sid: string;
  account_sid: string | null;
  user_id: string;
  /** The caller, E.164, as the texts keep it. */
  from_number: string;
  /** The caller's local day when the call came in: calls a day are counted by it. */
  local_date: string;
  started_at: string;
  recording_sid: string | null;
  recording_url: string | null;
  /** Twilio's RecordingStatus; only 'completed' is fetched. */
  recording_status: string | null;
  recording_duration: number | null;
  /**
   * calling: no recording reported yet; download: to fetch and attach; delete: attached, Twilio's
   * copy to delete; done; ignored: a recording that did not complete; failed: given up (logged).
   */
  status: 'calling' | 'download' | 'delete' | 'done' | 'ignored' | 'failed';
  /** Tries of the current step (download, then delete). */
  attempts: Generated<number>;
  /** When the current step is due (again). */
  next_at: string | null;
  /** When a worker claimed the row; a claim older than the lease is taken over. */
  claimed_at: string | null;
  done_at: string | null;
  /** Why the last try failed (a status or a reason, never audio or words). */
  error: string | null;
  recording_received_at: string | null;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  refresh_tokens: RefreshTokensTable;
  one_time_tokens: OneTimeTokensTable;
  sms_messages: SmsMessagesTable;
  sms_send_budget: SmsSendBudgetTable;
  security_events: SecurityEventsTable;
  subscribers: SubscribersTable;
  billing_events: BillingEventsTable;
  rate_limit_hits: RateLimitHitsTable;
  event_tickets: EventTicketsTable;
  journal_entries: JournalEntriesTable;
  entry_idempotency_keys: EntryIdempotencyKeysTable;
  journal_photos: JournalPhotosTable;
  journal_recordings: JournalRecordingsTable;
  journal_revisions: JournalRevisionsTable;
  journal_sms_applied: JournalSmsAppliedTable;
  journal_imports: JournalImportsTable;
  journal_sms_undo: JournalSmsUndoTable;
  sms_test_logs: SmsTestLogsTable;
  key_rotations: KeyRotationsTable;
  /** The stored name predates the naming rule: it means server-key encryption, not the vault's box. */
  sealed_secrets: SealedSecretsTable;
  import_jobs: ImportJobsTable;
  vaults: VaultsTable;
  vault_stale_files: VaultStaleFilesTable;
  auth_sessions: AuthSessionsTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  voice_calls: VoiceCallsTable;
}

export type User = Selectable<UsersTable>;
export type VoiceCall = Selectable<VoiceCallsTable>;
export type Profile = Selectable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;
export type SmsMessage = Selectable<SmsMessagesTable>;
export type Subscriber = Selectable<SubscribersTable>;
export type JournalEntryRow = Selectable<JournalEntriesTable>;
export type JournalPhotoRow = Selectable<JournalPhotosTable>;
export type JournalRecordingRow = Selectable<JournalRecordingsTable>;
