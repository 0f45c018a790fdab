import { deleteExpiredRefreshTokens } from '../auth/expired-sessions';
import { deleteLapsedSignInRows } from '../auth/passkeys/webauthn';
import { expirePendingSignUps } from '../auth/pending-sign-ups';
import { runImports } from '../import/runner';
import { sweepRateLimitHits } from '../rate-limit';
import { forgetOldEntryKeys } from '../journal/service';
import { runReminderPass } from '../reminders/service';
import { sendDueMessages } from '../sms/outbound';
import { redactProviderCopies } from '../sms/redact';
import { processInboundTexts } from '../sms/inbound-job';
import { sealVaults } from '../vault/seal-journal';
import { downloadCallRecordings } from '../voice/calls/download-job';
import { processTranscriptions } from '../voice/transcription/job';
import type { JobDefinition } from './scheduler';

import { CALL_RECORDINGS, INBOUND_TEXTS, OUTBOUND_SENDER, TRANSCRIPTIONS } from './wakeups';

/** Every background job. Each claims its own work in the database, so every instance may run them. */
export const jobDefinitions: JobDefinition[] = [
  { name: OUTBOUND_SENDER, everyMs: 1_000, run: (ctx) => sendDueMessages(ctx) },
  // Woken by the webhook; the timer is for retries, and its first run, as the instance starts, takes
  // over texts a killed instance left (inbound-job.ts).
  { name: INBOUND_TEXTS, everyMs: 5_000, run: (ctx) => processInboundTexts(ctx) },
  // Woken by the recording callback; the timer retries, and its first run takes over what a killed instance held.
  { name: CALL_RECORDINGS, everyMs: 5_000, run: (ctx, log) => downloadCallRecordings(ctx, log) },
  // Woken by each new pending recording and by "Transcribe again"; the timer is for retries and for
  // recordings a stopped instance held (voice/transcription/job.ts).
  { name: TRANSCRIPTIONS, everyMs: 15_000, run: (ctx) => processTranscriptions(ctx) },
  { name: 'twilio-redaction', everyMs: 15_000, run: (ctx) => redactProviderCopies(ctx) },
  // Woken by each upload; the timer takes up imports a stopped or killed instance left (import/runner.ts).
  { name: 'imports', everyMs: 5_000, run: (ctx) => runImports(ctx) },
  { name: 'reminders', everyMs: 60_000, run: (ctx) => runReminderPass(ctx, ctx.clock.now()) },
  { name: 'pending-sign-ups', everyMs: 60_000, run: (ctx) => expirePendingSignUps(ctx) },
  { name: 'expired-sessions', everyMs: 3_600_000, run: (ctx) => deleteExpiredRefreshTokens(ctx) },
  { name: 'lapsed-sign-in-rows', everyMs: 3_600_000, run: (ctx) => deleteLapsedSignInRows(ctx) },
  { name: 'rate-limit-hits', everyMs: 600_000, run: (ctx) => sweepRateLimitHits(ctx) },
  // Seals the journals of vaults being turned on, with no tab open (vault/seal-journal.ts).
  { name: 'vault-sealing', everyMs: 5_000, run: (ctx) => sealVaults(ctx) },
  { name: 'entry-idempotency-keys', everyMs: 3_600_000, run: (ctx) => forgetOldEntryKeys(ctx) },
];
