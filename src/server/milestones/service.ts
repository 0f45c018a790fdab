import { getAccessStatus } from '../billing/access';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { localDate } from '../journal/dates';
import { enqueueSms } from '../sms/outbound';
import { smsTexts } from '../sms/texts';
import { milestoneCounts } from './repo';

/** Streaks (consecutive days) and journal days worth a congratulation. */
const STREAK_MILESTONES = [7, 30, 100, 365] as const;
const DAY_MILESTONES = [10, 50, 100, 250, 500, 1000] as const;

interface Milestone {
  kind: 'streak' | 'days';
  count: number;
}

/** Which milestones these statistics sit exactly on. */
export function milestonesReached(stats: { current_streak: number; total_days: number }): Milestone[] {
  const reached: Milestone[] = [];
  if ((STREAK_MILESTONES as readonly number[]).includes(stats.current_streak)) reached.push({ kind: 'streak', count: stats.current_streak });
  if ((DAY_MILESTONES as readonly number[]).includes(stats.total_days)) reached.push({ kind: 'days', count: stats.total_days });
  return reached;
}

/** What the caller of celebrateMilestones already read about the user (an inbound text has it). */
interface KnownUser {
  phone_number: string;
  phone_verified: number;
  timezone: string;
  hasAccess: boolean;
}

/**
 * After a new entry (web or text): congratulates a verified user with access on a milestone, once
 * per milestone ever (the dedupe key), through the outbound queue, which skips opted-out users.
 * The counts come from an indexed query (milestones/repo.ts), never from the whole journal.
 */
export async function celebrateMilestones(ctx: AppContext, userId: string, known?: KnownUser, db: Db = ctx.db): Promise<Milestone[]> {
  const profile = known ?? (await db.selectFrom('profiles').select(['phone_number', 'phone_verified', 'timezone']).where('id', '=', userId).executeTakeFirst());
  if (!profile || profile.phone_verified !== 1) return [];
  if (!(known ? known.hasAccess : (await getAccessStatus(ctx, userId)).hasAccess)) return [];
  const reached = milestonesReached(await milestoneCounts(db, userId, localDate(ctx.clock.now(), profile.timezone || 'UTC')));
  const queued: Milestone[] = [];
  for (const milestone of reached) {
    const { queued: isNew } = await enqueueSms(
      ctx,
      {
        userId,
        to: profile.phone_number,
        body: smsTexts.milestone(milestone),
        kind: 'milestone',
        dedupeKey: `milestone:${userId}:${milestone.kind}:${milestone.count}`,
      },
      db,
    );
    if (isNew) queued.push(milestone);
  }
  return queued;
}
