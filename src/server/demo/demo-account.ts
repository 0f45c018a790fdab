import { randomBytes, randomInt } from 'node:crypto';
import { createEntrySchema } from '../../shared/journal';
import { TRIAL_DAYS } from '../../shared/limits';
import { zonedInstant } from '../../shared/zones';
import { hashPassword } from '../auth/passwords';
import { deleteUser, findUserByEmail, phoneExists } from '../auth/repo';
import { createAccount } from '../auth/sign-up';
import { manualClock } from '../clock';
import type { AppContext } from '../context';
import { parseInput } from '../http/validate';
import { localDate } from '../journal/dates';
import { createEntry } from '../journal/service';
import { removeAllPhotoFiles } from '../journal/entry-photos';
import { recordInboundText } from '../sms/inbound';
import { processInboundMessage } from '../sms/inbound-job';
import { demoPhoto } from './images';
import { planDemoYear, type LocalTime, type PlannedWebEntry } from './plan';
import { seededRandom, type Random } from './random';

export const DEMO_EMAIL = 'demo@jotline.app';
const DEMO_TIMEZONE = 'America/New_York';
const DEMO_DAYS = 365;
const DAY_MS = 86_400_000;

export interface DemoAccount {
  userId: string;
  email: string;
  password: string;
  /** E.164, verified. */
  phone: string;
  signInUrl: string;
  entries: number;
  photos: number;
}

/** A fictional number (555-01xx lines are reserved for fiction), never the journal's own. */
async function freeDemoPhone(ctx: AppContext): Promise<string> {
  for (let n = 0; n < 100; n++) {
    const phone = `+155555501${String((42 + n) % 100).padStart(2, '0')}`;
    if (phone !== ctx.config.journalNumber && !(await phoneExists(ctx.db, phone))) return phone;
  }
  throw new Error('Every 555-01xx demo number is taken');
}

/** Meets the sign-up rules (upper and lower case, a digit, 8 or more characters). */
const newDemoPassword = () => `Demo-${randomBytes(6).toString('hex')}-${randomInt(10, 100)}`;

/** Removes an earlier demo account with everything in it, photo files included. */
async function removeDemoAccount(ctx: AppContext): Promise<void> {
  const existing = await findUserByEmail(ctx.db, DEMO_EMAIL);
  if (!existing) return;
  await removeAllPhotoFiles(ctx, existing.id);
  await deleteUser(ctx.db, existing.id);
  ctx.journalCache.forget(existing.id);
}

/** A web entry through the journal service, its photos through the photo pipeline. */
async function writeWebEntry(ctx: AppContext, userId: string, day: PlannedWebEntry, random: Random): Promise<number> {
  const uploads = [];
  for (const [index, scene] of day.photos.entries()) {
    const bytes = await demoPhoto(scene, random);
    // Named as a phone names them: local date and time taken.
    const taken = `${day.date.replace(/-/g, '')}_${String(day.hour).padStart(2, '0')}${String(Math.min(day.minute + index, 59)).padStart(2, '0')}00`;
    uploads.push({ fileName: `IMG_${taken}.jpg`, bytes, size: bytes.length });
  }
  const input = parseInput(createEntrySchema, { content: day.content, title: day.title, tags: day.tags, entry_date: day.date });
  await createEntry(ctx, userId, input, uploads);
  return uploads.length;
}

/** Texts to the journal number through the SMS pipeline: recorded, then processed into the day entry. */
async function sendText(ctx: AppContext, phone: string, body: string): Promise<void> {
  const messageSid = `SM${randomBytes(16).toString('hex')}`;
  const { id } = await recordInboundText(ctx, { messageSid, from: phone, to: ctx.config.journalNumber, body, media: [] });
  const outcome = await processInboundMessage(ctx, id);
  if (outcome.status !== 'processed') throw new Error(`A demo text was not processed (${outcome.status === 'failed' ? outcome.error : 'busy'})`);
}

/**
 * Creates (or recreates) the demo account: a verified phone, a running trial and a year of entries
 * ending today, written through the same services as real ones (so encrypted, with real photos).
 */
export async function createDemoAccount(ctx: AppContext): Promise<DemoAccount> {
  await removeDemoAccount(ctx);
  const now = ctx.clock.now();
  const random = seededRandom(20_261_122);
  const plan = planDemoYear(localDate(now, DEMO_TIMEZONE), DEMO_DAYS, random);
  // Each entry is written as of the moment it is about, never later than now.
  const momentOf = (day: string, time: LocalTime) => new Date(Math.min(zonedInstant(day, `${time.hour}:${time.minute}`, DEMO_TIMEZONE).getTime(), now.getTime() - 60_000));
  const clock = manualClock(momentOf(plan[0]!.date, { hour: 7, minute: 0 }));
  const demo: AppContext = { ...ctx, clock };

  const password = newDemoPassword();
  const phone = await freeDemoPhone(ctx);
  const userId = await createAccount(ctx.db, clock, {
    email: DEMO_EMAIL,
    phone,
    passwordHash: await hashPassword(password),
    timezone: DEMO_TIMEZONE,
    phoneVerified: true,
    trialEnd: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
  });

  let photos = 0;
  for (const day of plan) {
    if (day.source === 'web') {
      clock.set(momentOf(day.date, day));
      photos += await writeWebEntry(demo, userId, day, random);
    } else {
      for (const text of day.texts) {
        clock.set(momentOf(day.date, text));
        await sendText(demo, phone, text.body);
      }
    }
  }
  return { userId, email: DEMO_EMAIL, password, phone, signInUrl: `${ctx.config.publicUrl}/sign-in`, entries: plan.length, photos };
}
