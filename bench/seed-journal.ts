import type { FastifyInstance } from 'fastify';
import type { Insertable } from 'kysely';
import type { JournalEntryRow, JournalPhotoRow, RefreshTokensTable } from '../src/server/db/tables';
import { newId } from '../src/server/ids';
import { addDays, localDate } from '../src/server/journal/dates';
import { encryptEntryText } from '../src/server/journal/entry-cipher';
import { loadOwner } from '../src/server/journal/owner';
import { bumpRevision } from '../src/server/journal/repo';
import { buildUser, signIn } from '../src/server/test/factories';
import type { TestApp } from '../src/server/test/app';
import { countWords } from '../src/shared/journal';

const WORDS = `morning coffee walk river dog park rain sunshine work meeting friend dinner book garden
 tired happy quiet city train music kitchen bread letter mother father sister brother weekend
 market bicycle hill window evening cold warm tea office lunch project deadline phone call
 laughed cooked cleaned wrote read thought remembered planned visited played watched listened
 ocean beach forest mountain snow spring summer autumn winter birthday holiday trip plane hotel
 grateful anxious calm proud worried excited slow busy long short early late small big new old`
  .split(/\s+/)
  .filter(Boolean);
const TAGS = ['work', 'family', 'travel', 'health', 'gratitude', 'ideas', 'reading', 'running'];

/** A small deterministic random source, so every run writes the same journal. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A user with one entry a day for `days` days (about 40-200 words each, some tags, a photo record
 * on every tenth) written straight to the database the way the services write them. The word
 * "zeppelin" appears in exactly ten entries, for a search that has to look through everything.
 * Like a real user of that many days, the user has signed in before: a refresh token a day, in
 * sessions of a week (exchanged, or signed out), ahead of the session the benchmark signs in with.
 */
export async function seedJournal(app: FastifyInstance, days: number): Promise<{ userId: string; token: string; rareWord: string }> {
  const t = { app } as TestApp;
  const ctx = app.ctx;
  const user = await buildUser(t, { timezone: 'UTC' });
  const owner = await loadOwner(ctx, user.id);
  const next = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const today = localDate(ctx.clock.now(), 'UTC');
  const rows: JournalEntryRow[] = [];
  const photos: JournalPhotoRow[] = [];
  for (let i = 0; i < days; i++) {
    const day = addDays(today, -i);
    const paragraphs = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
      Array.from({ length: 15 + Math.floor(next() * 50) }, () => pick(WORDS)).join(' '),
    );
    if (i % (Math.floor(days / 10) || 1) === 5) paragraphs.push('Saw a zeppelin over the hills.');
    const content = paragraphs.join('\n\n');
    const at = `${day}T21:00:00.000Z`;
    const id = newId();
    rows.push({
      id,
      user_id: user.id,
      version: 1,
      ...encryptEntryText(ctx, user.id, owner.salt, { content, title: i % 4 === 0 ? `Day ${days - i}` : null, tags: next() < 0.5 ? [pick(TAGS)] : [] }),
      source: i % 3 === 0 ? 'sms' : 'web',
      sms_part: 0,
      sealed: null,
      time_zone: null,
      entry_date: day,
      word_count: countWords(content),
      created_at: at,
      updated_at: at,
    });
    if (i % 10 === 0) {
      const key = `${user.id}/${id}/${Date.parse(at)}-0000000000000000`;
      photos.push({ id: newId(), entry_id: id, user_id: user.id, file_path: `${key}.jpg`, thumb_path: `${key}.thumb.webp`, file_name: 'photo.jpg', file_size: 250_000, mime_type: 'image/jpeg', position: 0, created_at: at });
    }
  }
  const sessions: Insertable<RefreshTokensTable>[] = [];
  for (let i = days; i > 0; i--) {
    const at = `${addDays(today, -i)}T08:00:00.000Z`;
    const family = Math.floor(i / 7);
    const signedOut = family % 3 === 0 && i % 7 === 0;
    sessions.push({ id: newId(), user_id: user.id, token_hash: `past-${user.id}-${i}`, family_id: `past-${user.id}-${family}`, rotated_at: signedOut ? null : at, revoked_at: signedOut ? at : null, expires_at: `${addDays(today, 30 - i)}T08:00:00.000Z`, created_at: at });
  }
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('journal_entries').values(rows.slice(i, i + 500)).execute();
    for (let i = 0; i < photos.length; i += 500) await trx.insertInto('journal_photos').values(photos.slice(i, i + 500)).execute();
    await bumpRevision(trx, user.id);
    for (let i = 0; i < sessions.length; i += 500) await trx.insertInto('refresh_tokens').values(sessions.slice(i, i + 500)).execute();
  });
  return { userId: user.id, token: await signIn(t, user), rareWord: 'zeppelin' };
}
