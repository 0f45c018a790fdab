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
import { newId } from '../ids';
import { recordInboundText } from '../sms/inbound';
import { processInboundMessage } from '../sms/inbound-job';
import { findMessage, findProfileByPhone, updateMessage } from '../sms/repo';

export interface SmsTestInput {
  testType: SmsTestType;
  /** E.164. */
  phone: string;
  /** The text; the type's built-in message when undefined. */
  content?: string;
}

/**
 * A comprehensive test: the text goes through the real inbound pipeline as if the phone had texted
 * the journal number (recorded, then processed now rather than in the background), and each stage
 * is reported as a step. The run is logged with the phone masked and the text as a preview only.
 */
export async function runSmsTest(ctx: AppContext, input: SmsTestInput, adminId: string): Promise<SmsTestResponse> {
  const started = performance.now();
  const content = input.content ?? smsTestMessage(input.testType);
  const steps: SmsTestStep[] = [];
  const step = (name: string, success: boolean, message: string) => steps.push({ name, success, message });

  const profile = await findProfileByPhone(ctx.db, input.phone);
  step('User lookup', !!profile, profile ? 'Found an account for this phone number' : 'No account uses this phone number');
  const verified = !!profile && profile.phone_verified === 1;
  step('Phone verification', verified, verified ? 'Phone number is verified' : 'Phone number is not verified');
  const access = profile ? await getAccessStatus(ctx, profile.id) : null;
  const hasAccess = !!access?.hasAccess;
  step(
    'Subscription check',
    hasAccess,
    hasAccess ? (access!.subscribed ? 'Active paid subscription' : 'Active free trial') : 'No active trial or subscription',
  );

  const messageSid = 'SMTEST' + randomBytes(13).toString('hex');
  let processingMs: number | null = null;
  let webhookStatus = 'not_recorded';
  let entryCreated = false;
  try {
    const recorded = await recordInboundText(ctx, { messageSid, from: input.phone, to: ctx.config.journalNumber, body: content, media: [] });
    step('Webhook received', !recorded.duplicate, recorded.duplicate ? 'The text was already recorded' : 'Inbound text recorded');
    const outcome = await processInboundMessage(ctx, recorded.id);
    const row = await findMessage(ctx.db, recorded.id);
    processingMs = row?.processing_ms ?? null;
    webhookStatus = outcome.status;
    if (outcome.status === 'failed') {
      // A test text is not retried by the sweep: the failure is recorded and left as it is.
      await updateMessage(ctx.db, recorded.id, { processed: 1, updated_at: ctx.clock.now().toISOString() });
      step('Message processing', false, `Processing failed: ${outcome.error}`);
    } else {
      step('Message processing', outcome.status === 'processed', outcome.status === 'processed' ? `Processed as ${row?.kind ?? 'unknown'}` : 'The text is being processed elsewhere');
    }
    entryCreated = !!row && row.kind === 'journal' && !!row.entry_id;
    step('Journal entry', entryCreated, entryCreated ? 'Added to the journal entry for the day' : entryFailure(row?.kind));
  } catch (err) {
    step('Webhook received', false, `The text could not be recorded: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  }

  const passed = steps.filter((s) => s.success).length;
  const response: SmsTestResponse = {
    success: passed === steps.length,
    testType: input.testType,
    steps,
    summary: {
      passedSteps: passed,
      totalSteps: steps.length,
      userFound: !!profile,
      userVerified: verified,
      hasActiveSubscription: hasAccess,
      entryCreated,
    },
    timing: { durationMs: Math.round(performance.now() - started), processingMs },
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
      webhook_status: webhookStatus,
      webhook_response: JSON.stringify({ steps, summary: response.summary, timing: response.timing }),
      payload: JSON.stringify({ testType: input.testType, length: content.length, from: maskPhone(input.phone), messageSid }),
      created_by: adminId,
      created_at: ctx.clock.now().toISOString(),
    })
    .execute();
  return response;
}

function entryFailure(kind: string | undefined): string {
  switch (kind) {
    case 'empty':
      return 'Empty message: nothing was added to the journal';
    case 'unknown_number':
      return 'Unknown number: a sign-up hint was sent instead';
    case 'unverified':
      return 'Unverified phone: the user was asked to reply YES';
    case undefined:
      return 'No journal entry was created';
    default:
      return `Handled as ${kind}: no journal entry was created`;
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
