import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { addDays, localDate } from '../journal/dates';
import { inboundProcessingSettled } from '../sms/inbound-job';
import { buildSmsTestApp, inboundRow, newMessageSid, postTwilioWebhook, TWILIO_SID, JOURNAL_NUMBER, type SmsTestApp } from '../test/sms';
import { sendDueMessages } from '../sms/outbound';
import { bearer, buildUser, signIn, type TestUser } from '../test/factories';
import { vaultMessages } from '../../shared/vault-messages';
import { browserKeys, sealJournal, turnOn, vaultRequest, type BrowserKeys } from '../test/vault';

// A Vault user's words are sealed to the vault's public key by the webhook, before anything is
// written: a thief holding the master key and a copy of the data (the SQLite file and its WAL, or
// PostgreSQL's table pages with their dead row versions) finds none of them, while the same search
// finds another user's text.

/** Every value the server's keys decrypt, as raw bytes of the database hold them (live or dead). */
async function rawDatabaseBytes(t: SmsTestApp): Promise<string> {
  const url = t.shared.env.DATABASE_URL!;
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const read = (path: string) => {
      try {
        return readFileSync(path).toString('latin1');
      } catch {
        return '';
      }
    };
    return read(file) + read(`${file}-wal`);
  }
  // PostgreSQL: every tuple of every table's pages, dead versions included, as stored.
  await sql`create extension if not exists pageinspect`.execute(t.ctx.db);
  const tables = (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(t.ctx.db)).rows;
  let bytes = '';
  for (const { name } of tables) {
    const pages = (await sql<{ n: string }>`select (pg_relation_size(${name}) / 8192)::text as n`.execute(t.ctx.db)).rows[0]!;
    for (let page = 0; page < Number(pages.n); page++) {
      const tuples = await sql<{ t_data: Buffer | null }>`select t_data from heap_page_items(get_raw_page(${name}, ${page}))`.execute(t.ctx.db);
      for (const tuple of tuples.rows) if (tuple.t_data) bytes += tuple.t_data.toString('latin1') + '\n';
    }
  }
  return bytes;
}

/** What the master key decrypts in those bytes: every `ENC:` value, with the system key and each user's key. */
async function decryptedWithServerKeys(t: SmsTestApp): Promise<string[]> {
  const raw = await rawDatabaseBytes(t);
  const profiles = await t.ctx.db.selectFrom('profiles').select(['id', 'key_salt']).execute();
  const subjects = [SYSTEM_SUBJECT, ...profiles.map((p) => ({ id: p.id, salt: p.key_salt }))];
  const decrypted: string[] = [];
  // Stored values sit side by side in a page with nothing between them: each `ENC:` value is tried
  // at every length its base64 run allows, longest first.
  for (const match of raw.matchAll(/ENC:[A-Za-z0-9_-]{8}:([A-Za-z0-9+/=]+)/g)) {
    const head = match[0].slice(0, match[0].length - match[1]!.length);
    const run = match[1]!;
    found: for (let length = run.length - (run.length % 4); length >= 16; length -= 4) {
      for (const subject of subjects) {
        try {
          decrypted.push(t.ctx.cipher.decryptStrict(subject.id, subject.salt, head + run.slice(0, length)));
          break found;
        } catch {
          // not this key's, or not this length
        }
      }
    }
  }
  return decrypted;
}

describe("a Vault user's texts are sealed at arrival", () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  async function vaultUser(): Promise<{ account: TestUser; keys: BrowserKeys }> {
    const account = await buildUser(t);
    const token = await signIn(t, account);
    const keys = await browserKeys();
    await turnOn(t, { id: account.id, token, headers: bearer(token) }, keys);
    return { account, keys };
  }
  const post = (from: string, body: string) =>
    postTwilioWebhook(t, '/webhooks/twilio/sms', { MessageSid: newMessageSid(), AccountSid: TWILIO_SID, From: from, To: JOURNAL_NUMBER, Body: body, NumMedia: '0' });

  it('records only the sealed box, which the server cannot open, and journals it as the browser reads it', async () => {
    const { account, keys } = await vaultUser();
    const sent = await post(account.phone, 'Kestrel hovering over the quarry');
    expect(sent.statusCode).toBe(200);
    const [row] = await t.ctx.db.selectFrom('sms_messages').selectAll().where('from_number', '=', account.phone).where('direction', '=', 'inbound').execute();
    expect(row!.body).toMatch(/^VAULT:/);
    expect(row!.body).not.toContain('Kestrel');
    await inboundProcessingSettled(t.ctx);

    const [entry] = await t.ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', account.id).execute();
    expect((JSON.parse(entry!.sealed!) as string[]).map((s) => keys.openSegment(s))).toEqual([
      { text: 'Kestrel hovering over the quarry', at: row!.created_at, source: 'sms' },
    ]);
    expect(entry!.word_count).toBe(5);
    expect(await inboundRow(t, row!.provider_message_id!)).toMatchObject({ processed: 1, kind: 'journal', body: null, media: null });
  });

  it('leaves no word the master key decrypts in the database file, its WAL or dead rows; another user’s text is found there', async () => {
    const { account } = await vaultUser();
    const control = await buildUser(t);
    await post(account.phone, 'Quokka sighting at noon');
    await post(account.phone, 'YESTERDAY: Marmalade toast and tea');
    await post(control.phone, 'Lighthouse keeper waved');
    await inboundProcessingSettled(t.ctx);
    await sendDueMessages(t.ctx);

    const decrypted = (await decryptedWithServerKeys(t)).join('\n');
    expect(decrypted).toContain('Lighthouse keeper waved'); // the search finds what the server's keys decrypt
    for (const word of ['Quokka', 'Marmalade']) expect(decrypted).not.toContain(word);
    expect(await rawDatabaseBytes(t)).not.toContain('Quokka');
  });

  it('puts YESTERDAY: words on the day before and answers the command, without reading them', async () => {
    const { account, keys } = await vaultUser();
    const token = await signIn(t, account);
    await sealJournal(t, { id: account.id, token, headers: bearer(token) });
    await post(account.phone, 'YESTERDAY: Long walk by the river');
    await inboundProcessingSettled(t.ctx);
    const [entry] = await t.ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', account.id).execute();
    const [row] = await t.ctx.db.selectFrom('sms_messages').selectAll().where('from_number', '=', account.phone).where('direction', '=', 'inbound').execute();
    // buildUser's zone is New York.
    expect(entry!.entry_date).toBe(addDays(localDate(new Date(row!.created_at), 'America/New_York'), -1));
    expect((JSON.parse(entry!.sealed!) as string[]).map((s) => keys.openSegment(s).text)).toEqual(['Long walk by the river']);
    const replies = await t.ctx.db.selectFrom('sms_messages').select('kind').where('to_number', '=', account.phone).where('direction', '=', 'outbound').execute();
    expect(replies.map((r) => r.kind)).toContain('command_reply');
  });

  it('keeps keywords and commands as they are: they hold no journal words', async () => {
    const { account } = await vaultUser();
    await post(account.phone, 'PAUSE');
    const [row] = await t.ctx.db.selectFrom('sms_messages').selectAll().where('from_number', '=', account.phone).where('direction', '=', 'inbound').execute();
    expect(row!.body).toMatch(/^ENC:/);
    await inboundProcessingSettled(t.ctx);
    expect(await inboundRow(t, row!.provider_message_id!)).toMatchObject({ kind: 'command' });
    expect(await t.ctx.db.selectFrom('journal_entries').select('id').where('user_id', '=', account.id).execute()).toEqual([]);
  });

  it('waits to turn the vault off until a text sealed on arrival is in the journal, sealed for the browser to open', async () => {
    const { account, keys } = await vaultUser();
    const token = await signIn(t, account);
    const user = { id: account.id, token, headers: bearer(token) };
    await sealJournal(t, user);
    await post(account.phone, 'Otters in the harbour'); // recorded sealed, not yet processed
    expect((await vaultRequest(t, user, 'POST', '/api/vault/unseal')).statusCode).toBe(200);
    const early = await vaultRequest(t, user, 'DELETE', '/api/vault');
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(vaultMessages.errors.textsWaiting);

    await inboundProcessingSettled(t.ctx);
    const [entry] = await t.ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', account.id).execute();
    expect((JSON.parse(entry!.sealed!) as string[]).map((s) => keys.openSegment(s).text)).toEqual(['Otters in the harbour']);
    // Texts from now on arrive in the clear: the vault is being turned off.
    await post(account.phone, 'Seals on the rocks');
    const [row] = await t.ctx.db.selectFrom('sms_messages').select('body').where('from_number', '=', account.phone).where('processed', '=', 0).execute();
    expect(row!.body).toMatch(/^ENC:/);
    await inboundProcessingSettled(t.ctx);
  });
});
