import type { AppContext } from '../context';

/**
 * Budget left unused carries over for at most this long: enough for a quiet sender's first texts to
 * go at once, little enough that a sender catching up after a stall cannot burst far past the rate.
 */
const CARRY_US = 250_000;
/** A sender takes slots at least this many at a time (a tenth of a second's worth), not one by one. */
const MIN_TAKE_US = 100_000;
const BUDGET = 'sms';

/** Texts a second for every instance together (SMS_SEND_RATE, Twilio only); undefined: unpaced. */
export function sendRateOf(ctx: AppContext): number | undefined {
  return ctx.config.sms.provider === 'twilio' ? ctx.config.sms.sendRate : undefined;
}

interface SendSlots {
  /** How many texts the caller may send now. */
  granted: number;
  /** Microseconds since the epoch when the budget's next slot is free, after this take. */
  nextFreeAt: number;
}

/**
 * Takes up to `wanted` send slots from the budget every instance shares: a row holding when the next
 * slot is free, moved on by compare-and-set, so two instances never take the same slot. Slots come
 * at `rate` a second; fewer than a tenth of a second's worth are not taken (the caller waits for more).
 */
export async function takeSendSlots(ctx: AppContext, wanted: number, rate: number): Promise<SendSlots> {
  const interval = 1_000_000 / rate;
  const least = Math.min(wanted, Math.max(1, Math.floor(MIN_TAKE_US / interval)));
  for (;;) {
    const now = ctx.clock.now().getTime() * 1000;
    const row = await ctx.db.selectFrom('sms_send_budget').select('next_free_at').where('id', '=', BUDGET).executeTakeFirstOrThrow();
    const current = Number(row.next_free_at);
    const start = Math.max(current, now - CARRY_US);
    const available = start > now ? 0 : Math.floor((now - start) / interval) + 1;
    if (available < least) return { granted: 0, nextFreeAt: start + (least - available) * interval };
    const granted = Math.min(wanted, available);
    const next = Math.round(start + granted * interval);
    const result = await ctx.db
      .updateTable('sms_send_budget')
      .set({ next_free_at: next })
      .where('id', '=', BUDGET)
      .where('next_free_at', '=', current)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return { granted, nextFreeAt: next };
    // Another sender took slots meanwhile: read the budget again.
  }
}

/** Gives back slots taken and not used, unless another sender has taken slots since. */
export async function returnSendSlots(ctx: AppContext, taken: SendSlots, unused: number, rate: number): Promise<void> {
  if (unused <= 0) return;
  await ctx.db
    .updateTable('sms_send_budget')
    .set({ next_free_at: Math.round(taken.nextFreeAt - (unused * 1_000_000) / rate) })
    .where('id', '=', BUDGET)
    .where('next_free_at', '=', taken.nextFreeAt)
    .execute();
}
