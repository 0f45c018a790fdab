import type { AppContext } from '../context';

/**
 * How long a refresh token is kept after it expires. While kept, an old token presented again is
 * still known, so its reuse still ends its session (sessions.ts); after that it is refused as unknown.
 */
export const EXPIRED_TOKEN_KEPT_DAYS = 30;

/** Rows deleted per statement: SQLite holds the event loop while it deletes. */
const BATCH = 1_000;

/**
 * The housekeeping job: deletes refresh tokens expired for longer than EXPIRED_TOKEN_KEPT_DAYS.
 * Every refresh leaves the token it exchanged behind, so without this the table grows by a row per
 * signed-in user per hour for good. A session whose newest token is that old ended long ago
 * (access tokens last an hour). Deletes in batches, a turn of the event loop apart; returns how many.
 */
export async function deleteExpiredRefreshTokens(ctx: AppContext): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - EXPIRED_TOKEN_KEPT_DAYS * 86_400_000).toISOString();
  let deleted = 0;
  for (;;) {
    const result = await ctx.db
      .deleteFrom('refresh_tokens')
      .where('id', 'in', (eb) => eb.selectFrom('refresh_tokens').select('id').where('expires_at', '<', before).limit(BATCH))
      .executeTakeFirst();
    const rows = Number(result.numDeletedRows);
    deleted += rows;
    if (rows < BATCH) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
