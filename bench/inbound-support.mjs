// What the inbound benchmarks share: the app's Twilio settings, signed webhooks as Twilio sends
// them, USERS verified users with a few weeks of journal each, and the texts' rows read back.
import { createHmac } from 'node:crypto';
import { appModule, benchEnv } from './support.mjs';

export const USERS = Number(process.env.USERS ?? 10_000);
/** Past entries per user (one a day, ending the day before yesterday: no streak milestone today). */
export const DAYS = Number(process.env.DAYS ?? 20);
const PUBLIC_URL = 'http://jotline.bench';
const TOKEN = 'bench-twilio-auth-token';
const JOURNAL_NUMBER = '+15555550100';
export const WEBHOOK_PATH = '/webhooks/twilio/sms';
export const phoneOf = (i) => `+1${2000000000 + i}`;

/** An app environment that takes signed Twilio webhooks (`extra` on top, e.g. DATABASE_URL). */
export function webhookEnv(extra = {}) {
  return benchEnv({
    PUBLIC_URL,
    JOURNAL_NUMBER,
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'AC' + '0'.repeat(32),
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: JOURNAL_NUMBER,
    // Replies would go nowhere: no text here needs one (a running trial, no milestone today).
    TWILIO_API_URL: 'http://127.0.0.1:9',
    ...extra,
  });
}

/** X-Twilio-Signature: HMAC-SHA1 of the URL Twilio called followed by each sorted field name and value. */
function sign(url, params) {
  const data = Object.keys(params).sort().reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', TOKEN).update(data).digest('base64');
}

/** Text n of a run (`tag` keeps runs apart), from the users in turn: its MessageSid, form body and signature. */
export function signedText(tag, n) {
  const sid = `SM${tag}${n.toString(16).padStart(32 - tag.length, '0')}`;
  const params = { MessageSid: sid, From: phoneOf(n % USERS), To: JOURNAL_NUMBER, Body: `Walked the dog by the river, text ${n}.`, NumMedia: '0' };
  return { sid, body: new URLSearchParams(params).toString(), signature: sign(`${PUBLIC_URL}${WEBHOOK_PATH}`, params) };
}

/** Users, profiles (verified, with their own key salt), trials and DAYS past entries each, written in batches by `app` (of the tree at `root`). */
export async function seedUsers(app, root) {
  const cipher = await appModule('src/server/journal/entry-cipher.ts', root);
  // Named sealEntryText in trees before server-key encryption was called encrypt.
  const encryptEntryText = cipher.encryptEntryText ?? cipher.sealEntryText;
  const { newKeySalt } = await appModule('src/server/crypto/encryption.ts', root);
  const { addDays } = await appModule('src/server/journal/dates.ts', root);
  // In src/shared/journal.ts in trees before the rules had a module of their own.
  const { countWords } = await appModule('src/shared/journal-rules.ts', root).catch(() => appModule('src/shared/journal.ts', root));
  const ctx = app.ctx;
  const now = new Date();
  const iso = now.toISOString();
  const today = iso.slice(0, 10);
  for (let from = 0; from < USERS; from += 500) {
    const users = [];
    const profiles = [];
    const subscribers = [];
    const entries = [];
    const revisions = [];
    for (let i = from; i < Math.min(USERS, from + 500); i++) {
      const id = `bench-user-${i}`;
      const salt = newKeySalt();
      users.push({ id, email: `u${i}@bench.test`, password_hash: 'x', is_admin: 0, created_at: iso, updated_at: iso });
      profiles.push({ id, phone_number: phoneOf(i), phone_verified: 1, timezone: 'UTC', created_at: iso, key_salt: salt, sms_consent_at: iso, next_reminder_at: null, paused_until: null, updated_at: iso });
      subscribers.push({ id: `bench-sub-${i}`, user_id: id, email: `u${i}@bench.test`, is_trial: 1, trial_end: new Date(now.getTime() + 30 * 86_400_000).toISOString(), subscribed: 0, created_at: iso, updated_at: iso });
      for (let d = 2; d < DAYS + 2; d++) {
        const day = addDays(today, -d);
        const content = `Day ${d}: coffee, a walk by the river, work on the garden, dinner with a friend.`;
        const at = `${day}T21:00:00.000Z`;
        entries.push({ id: `bench-entry-${i}-${d}`, user_id: id, ...encryptEntryText(ctx, id, salt, { content, title: null, tags: [] }), source: 'sms', sms_part: 0, entry_date: day, word_count: countWords(content), created_at: at, updated_at: at });
      }
      revisions.push({ user_id: id, revision: 1 });
    }
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(users).execute();
      await trx.insertInto('profiles').values(profiles).execute();
      await trx.insertInto('subscribers').values(subscribers).execute();
      for (let i = 0; i < entries.length; i += 500) await trx.insertInto('journal_entries').values(entries.slice(i, i + 500)).execute();
      await trx.insertInto('journal_revisions').values(revisions).execute();
    });
  }
}

/** The inbound rows recorded since `sinceIso`: MessageSid, whether processed, and when it last changed (ms). */
export async function inboundRowsSince(db, sinceIso) {
  const rows = await db
    .selectFrom('sms_messages')
    .select(['provider_message_id', 'processed', 'status', 'updated_at'])
    .where('direction', '=', 'inbound')
    .where('created_at', '>=', sinceIso)
    .execute();
  return rows.map((r) => ({ sid: r.provider_message_id, processed: Number(r.processed) === 1, status: r.status, at: Date.parse(r.updated_at) }));
}

/** How many inbound texts recorded since `sinceIso` are not processed yet. */
export async function unprocessedSince(db, sinceIso) {
  const row = await db
    .selectFrom('sms_messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('created_at', '>=', sinceIso)
    .where('direction', '=', 'inbound')
    .where('processed', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
