import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { decryptPhotoBytes } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { loadOwner } from '../journal/owner';

// Test-only: looks for words or bytes everywhere the server keeps things, with every key it has.

/** Every string in every row of every table, as stored and as the server's keys decrypt it. */
async function readableStrings(ctx: AppContext, userId: string): Promise<string[]> {
  const { salt } = await loadOwner(ctx, userId);
  const tables =
    ctx.dbKind === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(ctx.db)).rows.map((r) => r.name)
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(ctx.db)).rows.map((r) => r.name);
  const found: string[] = [];
  for (const table of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(ctx.db)).rows;
    for (const row of rows) {
      for (const value of Object.values(row)) {
        if (typeof value !== 'string') continue;
        found.push(value, ctx.cipher.decrypt(userId, salt, value), ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, value));
      }
    }
  }
  return found;
}

/**
 * `word` standing as a word: a database of ciphertexts and sealed boxes (base64) holds any short word
 * somewhere by chance (one four-letter word in every 16 million characters), never with a space or a
 * quote on either side.
 */
function asWord(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9+/=_-])${escaped}(?![A-Za-z0-9+/=_-])`);
}

/** Whether the server, with every key it holds, can read `word` anywhere in its database. */
export async function databaseCanRead(ctx: AppContext, userId: string, word: string): Promise<boolean> {
  const pattern = asWord(word);
  return (await readableStrings(ctx, userId)).some((s) => pattern.test(s));
}

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Whether some stored file, as stored or as the server's keys decrypt it, holds these bytes. */
export async function storageCanRead(ctx: AppContext, userId: string, bytes: Buffer): Promise<boolean> {
  const { salt } = await loadOwner(ctx, userId);
  return filesUnder(ctx.config.storageUrl).some((file) => {
    const stored = readFileSync(file);
    let decrypted: Buffer = stored;
    try {
      decrypted = decryptPhotoBytes(ctx, userId, salt, stored);
    } catch {
      // not the server's to decrypt
    }
    return stored.includes(bytes) || decrypted.includes(bytes);
  });
}

/** Whether the journal the server holds in memory for the user (its cache) holds `word`. */
export async function cacheCanRead(ctx: AppContext, userId: string, word: string): Promise<boolean> {
  return asWord(word).test(JSON.stringify(await ctx.journalCache.entries(userId)));
}

/** Every file the server stores for the user, as stored. */
export function storedFilesOf(ctx: AppContext, userId: string): Buffer[] {
  return filesUnder(join(ctx.config.storageUrl, userId)).map((file) => readFileSync(file));
}

/** Whether the server's own code, with every key it holds, decrypts a stored file to something else than it stored. */
export async function serverDecryptsFile(ctx: AppContext, userId: string, stored: Buffer): Promise<boolean> {
  const { salt } = await loadOwner(ctx, userId);
  try {
    return !decryptPhotoBytes(ctx, userId, salt, stored).equals(stored);
  } catch {
    return false;
  }
}

/** The same for a stored string (a sealed segment, a sealed name): decrypted by the user's key or the system's. */
export async function serverDecryptsText(ctx: AppContext, userId: string, stored: string): Promise<boolean> {
  const { salt } = await loadOwner(ctx, userId);
  return ctx.cipher.decrypt(userId, salt, stored) !== stored || ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, stored) !== stored;
}
