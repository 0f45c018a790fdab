import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { ENTRY_CONTENT_MAX } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { JournalEntryRow } from '../db/tables';
import { inboundRow, mmsFields, PUBLIC_URL, textJournal, withTwilioApp, type FakeMediaHost, type FakeTwilio, type SmsTestApp } from '../test/sms';
import { sendDueMessages } from '../sms/outbound';
import { bearer, buildUser, signIn, type TestUser } from '../test/factories';
import { browserKeys, sealedWrite, sealJournal, turnOn, vaultRequest, type BrowserKeys } from '../test/vault';
import { databaseCanRead } from '../test/vault-zero-access';

// 10:00 in New York (buildUser's zone) on Monday 23 November 2026.
const MORNING = new Date('2026-11-23T15:00:00Z');
const t_ = messages.textCommands;

describe('texts to a Vault journal are sealed as they are processed', () => {
  let twilio: FakeTwilio;
  let media: FakeMediaHost;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, media, t } = app));
  beforeEach(() => t.clock.set(MORNING));

  async function vaultUser(seal = true): Promise<{ account: TestUser; keys: BrowserKeys; user: { id: string; token: string; headers: { authorization: string } } }> {
    const account = await buildUser(t);
    const token = await signIn(t, account);
    const user = { id: account.id, token, headers: bearer(token) };
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    if (seal) await sealJournal(t, user);
    return { account, keys, user };
  }
  const rows = (userId: string): Promise<JournalEntryRow[]> =>
    t.ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', userId).orderBy('entry_date').orderBy('sms_part').execute();
  const segments = (keys: BrowserKeys, row: JournalEntryRow) => (JSON.parse(row.sealed!) as string[]).map((s) => keys.openSegment(s));
  async function send(phone: string, body: string, extra: Record<string, string> = {}) {
    const before = twilio.sentTo(phone).length;
    const { sid } = await textJournal(t, phone, body, extra);
    await sendDueMessages(t.ctx);
    return { sid, replies: twilio.sentTo(phone).slice(before).map((m) => m.body) };
  }

  it('makes each text a sealed segment of its day entry, counts its words in the clear, and keeps no body', async () => {
    const { account, keys } = await vaultUser();
    const first = await send(account.phone, 'Heron on the marsh at dawn');
    t.clock.set(new Date(MORNING.getTime() + 60_000));
    await send(account.phone, 'Lunch with Priya');
    const [entry] = await rows(account.id);
    expect(entry).toMatchObject({ content: '', title: null, tags: '[]', source: 'sms', entry_date: '2026-11-23', word_count: 9 });
    expect(segments(keys, entry!)).toEqual([
      { text: 'Heron on the marsh at dawn', at: MORNING.toISOString(), source: 'sms' },
      { text: 'Lunch with Priya', at: new Date(MORNING.getTime() + 60_000).toISOString(), source: 'sms' },
    ]);
    expect(await inboundRow(t, first.sid)).toMatchObject({ processed: 1, kind: 'journal', body: null });
    for (const word of ['Heron', 'Priya']) expect(await databaseCanRead(t.ctx, account.id, word)).toBe(false);
  });

  it('seals an MMS photo, its thumbnail and its name to the public key', async () => {
    const { account, keys } = await vaultUser();
    await send(account.phone, 'Tide pools', mmsFields([media.photoUrl()]));
    const [entry] = await rows(account.id);
    expect(segments(keys, entry!).map((s) => s.text)).toEqual(['Tide pools']);
    const [photo] = await t.ctx.db.selectFrom('journal_photos').selectAll().where('entry_id', '=', entry!.id).execute();
    expect(keys.open(photo!.file_name)).toBe('mms-1.png');
    const stored = async (key: string) => {
      const object = await t.ctx.storage.get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of object!.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    // Opened, they are the picture as processing prepared it: a PNG, and a webp thumbnail.
    expect((await sharp(keys.openFile(await stored(photo!.file_path))).metadata()).format).toBe('png');
    expect((await sharp(keys.openFile(await stored(photo!.thumb_path))).metadata()).format).toBe('webp');
    expect(Number(photo!.file_size)).toBeGreaterThan(0);
  });

  it('UNDO takes the last text’s segment and photos out without reading them, and its words from the count', async () => {
    const { account, keys } = await vaultUser();
    await send(account.phone, 'Morning run along the canal');
    t.clock.set(new Date(MORNING.getTime() + 60_000));
    await send(account.phone, 'Sunset from the bridge', mmsFields([media.photoUrl()]));
    const { replies } = await send(account.phone, 'UNDO');
    expect(replies).toEqual([t_.undone('today', 1, false)]);
    const [entry] = await rows(account.id);
    expect(segments(keys, entry!).map((s) => s.text)).toEqual(['Morning run along the canal']);
    expect(entry!.word_count).toBe(5);
    expect(await t.ctx.db.selectFrom('journal_photos').select('id').where('entry_id', '=', entry!.id).execute()).toEqual([]);
    expect((await send(account.phone, 'UNDO')).replies).toEqual([t_.undone('today', 0, true)]);
    expect(await rows(account.id)).toEqual([]);
  });

  it('YESTERDAY: seals the text into yesterday’s entry, and UNDO takes it back out', async () => {
    const { account, keys } = await vaultUser();
    await send(account.phone, 'YESTERDAY: Forgot the concert');
    const [entry] = await rows(account.id);
    expect(entry!.entry_date).toBe('2026-11-22');
    expect(segments(keys, entry!).map((s) => s.text)).toEqual(['Forgot the concert']);
    expect((await send(account.phone, 'UNDO')).replies).toEqual([t_.undone('yesterday', 0, true)]);
    expect(await rows(account.id)).toEqual([]);
  });

  it('an edit on the web since the text stops UNDO from cutting the wrong segment', async () => {
    const { account, keys, user } = await vaultUser();
    await send(account.phone, 'Draft by text');
    const [entry] = await rows(account.id);
    const edit = await sealedWrite(keys, { text: 'Rewritten on the web', at: MORNING.toISOString(), source: 'web' });
    expect((await t.app.inject({ method: 'PATCH', url: `/api/entries/${entry!.id}`, headers: user.headers, payload: { sealed: [edit], word_count: 4 } })).statusCode).toBe(200);
    expect((await send(account.phone, 'UNDO')).replies).toEqual([t_.undoEdited(PUBLIC_URL)]);
    expect(segments(keys, (await rows(account.id))[0]!).map((s) => s.text)).toEqual(['Rewritten on the web']);
  });

  it('goes on in a continuation entry once the sealed texts would pass 10,000 characters, by their sealed size', async () => {
    const { account, keys } = await vaultUser();
    const long = 'a'.repeat(1_500);
    for (let i = 0; i < 7; i++) {
      t.clock.set(new Date(MORNING.getTime() + i * 60_000));
      await send(account.phone, `${i} ${long}`);
    }
    const parts = await rows(account.id);
    expect(parts.map((p) => [p.sms_part, segments(keys, p).length])).toEqual([
      [0, 6],
      [1, 1],
    ]);
    const lengths = parts.map((p) => segments(keys, p).map((s) => s.text).join('\n\n').length);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(ENTRY_CONTENT_MAX);
  });

  it('while the journal is being sealed, seals the day’s readable entry before the text joins it', async () => {
    const account = await buildUser(t);
    const user = { id: account.id, token: '', headers: bearer(await signIn(t, account)) };
    await send(account.phone, 'Before the vault');
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    t.clock.set(new Date(MORNING.getTime() + 60_000));
    await send(account.phone, 'After the vault');
    const [entry] = await rows(account.id);
    expect(segments(keys, entry!).map((s) => s.text)).toEqual(['Before the vault', 'After the vault']);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ state: 'sealing', sealed_entries: 1, total_entries: 1 });
  });

  it('while the vault is being turned off, adds a text to a sealed entry as a segment and starts a new day readable', async () => {
    const { account, keys, user } = await vaultUser();
    await send(account.phone, 'Sealed morning');
    await vaultRequest(t, user, 'POST', '/api/vault/unseal');
    t.clock.set(new Date(MORNING.getTime() + 60_000));
    await send(account.phone, 'Still sealed');
    t.clock.set(new Date(MORNING.getTime() + 86_400_000));
    await send(account.phone, 'A new day, readable');
    const [today, tomorrow] = await rows(account.id);
    expect(segments(keys, today!).map((s) => s.text)).toEqual(['Sealed morning', 'Still sealed']);
    expect(tomorrow!.sealed).toBeNull();
    expect(await databaseCanRead(t.ctx, account.id, 'A new day, readable')).toBe(true);
  });
});
