import type { Migration } from 'kysely';
import * as accounts from './2026-11-22-0001-accounts';
import * as journal from './2026-11-22-0002-journal';
import * as smsApplied from './2026-11-22-0003-sms-applied';
import * as billing from './2026-11-22-0004-billing';
import * as reminders from './2026-11-22-0005-reminders';
import * as admin from './2026-11-22-0006-admin';
import * as textCommands from './2026-11-23-0001-text-commands';
import * as journalImports from './2026-11-23-0010-journal-imports';
import * as onThisDay from './2026-11-23-0011-on-this-day';
import * as eventTickets from './2026-11-23-0040-event-tickets';
import * as smsContinuations from './2026-11-23-0050-sms-continuations';
import * as reminderDueIndexes from './2026-11-23-0080-reminder-due-indexes';
import * as keyRotations from './2026-11-23-0095-key-rotations';
import * as sealedSecrets from './2026-11-23-0100-sealed-secrets';
import * as liveSessionIndex from './2026-11-24-0010-live-session-index';
import * as rareRowIndexes from './2026-11-24-0020-rare-row-indexes';
import * as rateLimitSweepIndex from './2026-11-25-0010-rate-limit-sweep-index';
import * as outboundDelivery from './2026-11-25-0500-outbound-delivery';
import * as phoneClaims from './2026-11-25-0600-phone-claims';
import * as importJobs from './2026-11-25-0700-import-jobs';
import * as oneTimeZone from './2026-11-25-0900-one-time-zone';
import * as vault from './2026-11-25-1000-vault';
import * as vaultUndoWords from './2026-11-25-1001-vault-undo-words';
import * as entryZones from './2026-11-26-0100-entry-zones';
import * as emailVerification from './2026-11-28-0100-email-verification';
import * as entryVersions from './2026-11-28-0100-entry-versions';
import * as sessionProofs from './2026-11-28-0200-session-proofs';
import * as secondFactors from './2026-11-28-0100-second-factors';
import * as voiceRecordings from './2026-11-29-0100-voice-recordings';
import * as voiceCalls from './2026-11-29-0110-voice-calls';
import * as importAudios from './2026-11-29-0200-import-audios';
import * as processedBodies from './2026-11-29-0300-processed-bodies';

/** Every migration, in order. Names are date-prefixed and never change once released. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-accounts': accounts,
  '2026-11-22-0002-journal': journal,
  '2026-11-22-0003-sms-applied': smsApplied,
  '2026-11-22-0004-billing': billing,
  '2026-11-22-0005-reminders': reminders,
  '2026-11-22-0006-admin': admin,
  '2026-11-23-0001-text-commands': textCommands,
  '2026-11-23-0010-journal-imports': journalImports,
  '2026-11-23-0011-on-this-day': onThisDay,
  '2026-11-23-0040-event-tickets': eventTickets,
  '2026-11-23-0050-sms-continuations': smsContinuations,
  '2026-11-23-0080-reminder-due-indexes': reminderDueIndexes,
  '2026-11-23-0095-key-rotations': keyRotations,
  '2026-11-23-0100-sealed-secrets': sealedSecrets,
  '2026-11-24-0010-live-session-index': liveSessionIndex,
  '2026-11-24-0020-rare-row-indexes': rareRowIndexes,
  '2026-11-25-0010-rate-limit-sweep-index': rateLimitSweepIndex,
  '2026-11-25-0500-outbound-delivery': outboundDelivery,
  '2026-11-25-0600-phone-claims': phoneClaims,
  '2026-11-25-0700-import-jobs': importJobs,
  '2026-11-25-0900-one-time-zone': oneTimeZone,
  '2026-11-25-1000-vault': vault,
  '2026-11-25-1001-vault-undo-words': vaultUndoWords,
  '2026-11-26-0100-entry-zones': entryZones,
  '2026-11-28-0100-email-verification': emailVerification,
  '2026-11-28-0100-entry-versions': entryVersions,
  '2026-11-28-0100-second-factors': secondFactors,
  '2026-11-28-0200-session-proofs': sessionProofs,
  '2026-11-29-0100-voice-recordings': voiceRecordings,
  '2026-11-29-0110-voice-calls': voiceCalls,
  '2026-11-29-0200-import-audios': importAudios,
  '2026-11-29-0300-processed-bodies': processedBodies,
};
