import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  ADMIN_TEST_RESULTS,
  RESULT_PREVIEW_LENGTH,
  previewText,
  smsTestMessage,
  type SmsTestLog,
  type SmsTestResponse,
  type SmsTestStep,
  type SmsTestType,
} from '../../shared/admin';
import { maskPhone } from '../../shared/phone';
import { getAccessStatus } from '../billing/access';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { newId } from '../ids';
import { recordInboundText } from '../sms/inbound';
import { handleInboundText, type HandledText } from '../sms/inbound-rules';
import { INBOUND_TEXT_MAX, inboundTextLength, isOversizedText, refuseOversizedText } from '../sms/oversized-text';
import { findProfileByPhone } from '../sms/repo';
import { rehearse } from './rehearsal';

interface SmsTestInput {
  testType: SmsTestType;
  /** E.164. */
  phone: string;
  /** The text; the type's built-in message when undefined. */
  content?: string;
}

interface Outcome {
  steps: SmsTestStep[];
  summary: SmsTestResponse['summary'];
  processingMs: number | null;
  /** What processing made of the text (its kind), for the log. */
  kind: string;
}

/**
 * A comprehensive test, as a dry run: the text goes through the same rules as a text from that
 * phone (looked up, recorded, processed), inside a transaction that is rolled back, so nothing
 * reaches the customer's journal and nothing is texted to them. Each stage is a step with its time.
 * The run is logged with the phone masked and the test text as a preview only; the customer's
 * journal text never appears in the answer or the log.
 */
export async function runSmsTest(ctx: AppContext, input: SmsTestInput, adminId: string): Promise<SmsTestResponse> {
  const started = performance.now();
  const content = input.content ?? smsTestMessage(input.testType);
  const messageSid = 'SMTEST' + randomBytes(13).toString('hex');

  // What a real text would see: a late checkout is brought in from the billing provider first,
  // as any access check does (the rehearsal itself never calls the provider).
  const known = await findProfileByPhone(ctx.db, input.phone);
  if (known) await getAccessStatus(ctx, known.id);

  const outcome = await rehearse(ctx, (dry) => rehearseText(dry, input.phone, content, messageSid));
  const { steps, summary } = outcome;
  const response: SmsTestResponse = {
    success: summary.passedSteps === summary.totalSteps,
    testType: input.testType,
    steps,
    summary,
    timing: { durationMs: Math.round(performance.now() - started), processingMs: outcome.processingMs },
  };
  const failed = steps.find((s) => !s.success);
  if (failed) response.error = failed.message;

  await ctx.db
    .insertInto('sms_test_logs')
    .values({
      id: newId(),
      test_type: input.testType,
      phone_number: maskPhone(input.phone),
      message_content: previewText(content, RESULT_PREVIEW_LENGTH),
      success: response.success ? 1 : 0,
      webhook_status: `dry_run:${outcome.kind}`,
      webhook_response: JSON.stringify({ steps, summary: response.summary, timing: response.timing }),
      payload: JSON.stringify({ testType: input.testType, length: content.length, from: maskPhone(input.phone), messageSid, dryRun: true }),
      created_by: adminId,
      created_at: ctx.clock.now().toISOString(),
    })
    .execute();
  return response;
}

/** Every stage of one text, on the rehearsal's context (dry.db is the transaction that is rolled back). */
async function rehearseText(dry: AppContext, phone: string, content: string, messageSid: string): Promise<Outcome> {
  const steps: SmsTestStep[] = [];
  let mark = performance.now();
  const step = (name: string, success: boolean, message: string) => {
    const now = performance.now();
    steps.push({ name, success, message, durationMs: Math.round((now - mark) * 10) / 10 });
    mark = now;
  };

  const profile = await findProfileByPhone(dry.db, phone);
  step('User lookup', !!profile, profile ? 'Found an account for this phone number' : 'No account uses this phone number');
  const verified = !!profile && profile.phone_verified === 1;
  step('Phone verification', verified, verified ? 'Phone number is verified' : 'Phone number is not verified');
  const access = profile ? await getAccessStatus(dry, profile.id) : null;
  const hasAccess = !!access?.hasAccess;
  step('Subscription check', hasAccess, hasAccess ? (access!.subscribed ? 'Active paid subscription' : 'Active free trial') : 'No active trial or subscription');

  const earlierReplies = new Set((await repliesTo(dry.db, phone)).map((r) => r.id));
  const text = { messageSid, from: phone, to: dry.config.journalNumber, body: content, media: [] };
  let handled: HandledText | null = null;
  let kind: string;
  let processingMs: number | null = null;
  let failure: string | null = null;
  if (isOversizedText(content)) {
    // What the webhook does with such a text: refused whole and never processed.
    await refuseOversizedText(dry, text);
    step('Text recorded', true, 'Recorded as refused, as the webhook does (dry run)');
    kind = 'too_long';
  } else {
    const recorded = await recordInboundText(dry, text);
    step('Text recorded', !recorded.duplicate, 'Recorded as received (dry run)');
    const processing = performance.now();
    try {
      handled = await handleInboundText(dry, { messageId: recorded.id, messageSid, from: phone, body: content, media: [], receivedAt: dry.clock.now(), providerKeyword: null });
      kind = handled.kind;
    } catch (error) {
      kind = 'failed';
      failure = (error instanceof Error ? error.message : String(error)).slice(0, 300);
    }
    processingMs = Math.round(performance.now() - processing);
  }
  const replies = (await repliesTo(dry.db, phone)).filter((r) => !earlierReplies.has(r.id)).map((r) => r.kind);
  const replyNote = replies.length ? `; would reply by text (${replies.join(', ')}), not sent` : '; no reply';
  step('Message processing', kind !== 'too_long' && kind !== 'failed', `${processedAs(kind, content, failure)}${replyNote}`);

  const entryCreated = handled?.kind === 'journal' && !!handled.entryId;
  const entryMessage = entryCreated
    ? `Would be added to the journal entry for ${handled!.entryDate} (dry run: nothing was written)`
    : entryFailure(kind, content, replies.includes('too_long'));
  step('Journal entry', entryCreated, entryMessage);
  const passedSteps = steps.filter((s) => s.success).length;
  return {
    steps,
    summary: { passedSteps, totalSteps: steps.length, userFound: !!profile, userVerified: verified, hasActiveSubscription: hasAccess, entryCreated },
    processingMs,
    kind,
  };
}

/** The outbound texts queued for a phone. */
function repliesTo(db: Db, phone: string): Promise<Array<{ id: string; kind: string }>> {
  return db.selectFrom('sms_messages').select(['id', 'kind']).where('to_number', '=', phone).where('direction', '=', 'outbound').execute();
}

const count = (n: number) => n.toLocaleString('en-US');

function processedAs(kind: string, content: string, failure: string | null): string {
  if (kind === 'too_long') return `Refused: ${count(inboundTextLength(content))} characters, over the ${count(INBOUND_TEXT_MAX)}-character limit of one text`;
  if (kind === 'failed') return `Processing failed: ${failure}`;
  return `Processed as ${kind}`;
}

function entryFailure(kind: string, content: string, askedToSplit: boolean): string {
  switch (kind) {
    case 'too_long':
      return `Not added: a text over ${count(INBOUND_TEXT_MAX)} characters (${count(inboundTextLength(content))}) is refused${askedToSplit ? ' and its sender asked to split it' : ''}`;
    case 'empty':
      return 'Empty message: nothing would be added to the journal';
    case 'unknown_number':
      return 'Unknown number: a sign-up hint would be sent instead';
    case 'unverified':
      return 'Unverified phone: the user would be asked to reply YES';
    case 'failed':
      return 'No journal entry would be created';
    default:
      return `Handled as ${kind}: no journal entry would be created`;
  }
}

/** The latest test runs, newest first. */
export async function latestSmsTests(ctx: AppContext): Promise<SmsTestLog[]> {
  const rows = await ctx.db.selectFrom('sms_test_logs').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(ADMIN_TEST_RESULTS).execute();
  return rows.map((r) => ({
    id: r.id,
    test_type: r.test_type as SmsTestType,
    phone_number: r.phone_number,
    message_content: r.message_content,
    success: r.success === 1,
    webhook_status: r.webhook_status,
    webhook_response: r.webhook_response,
    payload: r.payload,
    created_at: r.created_at,
  }));
}
