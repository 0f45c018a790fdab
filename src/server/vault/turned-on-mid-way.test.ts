import { beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { vaultMessages } from '../../shared/vault-messages';
import { inboundProcessingSettled } from '../sms/inbound-job';
import { sealVaults } from './seal-journal';
import { mmsFields, newMessageSid, postTwilioWebhook, withTwilioApp, JOURNAL_NUMBER, TWILIO_SID, type FakeMediaHost, type SmsTestApp } from '../test/sms';
import { bearer, buildUser, signIn } from '../test/factories';
import { browserKeys, turnOn, vaultRequest } from '../test/vault';
import { databaseCanRead } from '../test/vault-zero-access';
import { isVaultFile } from '../crypto/sealed-box';

// The Vault is turned on while a writer is half-way: a text recorded but not yet processed, a web
// save on its way. Whichever lands first, once the server's sealing pass has run nothing of the
// journal is readable with the keys the server holds: the write is sealed as it goes in, sealed with
// the journal by the pass, or refused.

// 10:00 in New York (buildUser's zone) on Monday 23 November 2026.
const MORNING = new Date('2026-11-23T15:00:00Z');

describe('the vault turned on while a writer is mid-way', () => {
  let media: FakeMediaHost;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ media, t } = app));
  beforeEach(() => t.clock.set(MORNING));

  async function accountWithSession() {
    const account = await buildUser(t);
    const token = await signIn(t, account);
    return { account, user: { id: account.id, token, headers: bearer(token) } };
  }
  const record = (from: string, body: string, extra: Record<string, string> = {}) =>
    postTwilioWebhook(t, '/webhooks/twilio/sms', { MessageSid: newMessageSid(), AccountSid: TWILIO_SID, From: from, To: JOURNAL_NUMBER, Body: body, NumMedia: '0', ...extra });
  const stored = async (key: string) => {
    const object = await t.ctx.storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of object!.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const rows = (userId: string) => t.ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', userId).execute();

  it('a text recorded before, processed after: it goes in sealed, with its photo, and the day entry it joins is sealed first', async () => {
    const { account, user } = await accountWithSession();
    expect((await record(account.phone, 'Otters in the harbour')).statusCode).toBe(200);
    await inboundProcessingSettled(t.ctx);
    // The next text is recorded (the webhook saw no vault, so it is kept for processing as any text)...
    expect((await record(account.phone, 'Pelican on the pier', mmsFields([media.photoUrl()]))).statusCode).toBe(200);
    // ...and the vault is turned on before the job processes it.
    await turnOn(t, user, await browserKeys());
    await inboundProcessingSettled(t.ctx);

    const [entry, ...others] = await rows(account.id);
    expect(others).toEqual([]);
    // The day's entry was sealed before the text joined it: one entry, sealed, nothing in the clear.
    expect(entry).toMatchObject({ content: '', title: null, tags: '[]' });
    expect(JSON.parse(entry!.sealed!)).toHaveLength(2);
    const [photo] = await t.ctx.db.selectFrom('journal_photos').selectAll().where('entry_id', '=', entry!.id).execute();
    expect(photo!.file_name).not.toContain('mms-1');
    // Its files are boxes for the vault, which no key of the server's opens.
    for (const key of [photo!.file_path, photo!.thumb_path]) expect(isVaultFile(await stored(key))).toBe(true);
    for (const word of ['Otters', 'Pelican']) expect(await databaseCanRead(t.ctx, account.id, word)).toBe(false);
  });

  it('a web save on its way: it lands before and is sealed by the pass, or is refused; nothing readable after the pass', async () => {
    const { user } = await accountWithSession();
    const created = await t.app.inject({ method: 'POST', url: '/api/entries', headers: user.headers, payload: { content: 'Draft about the lighthouse' } });
    expect(created.statusCode).toBe(201);
    const entry = created.json() as JournalEntry;
    const keys = await browserKeys();
    // The save and the vault go out together, as from two tabs.
    const [saved] = await Promise.all([
      t.app.inject({ method: 'PATCH', url: `/api/entries/${entry.id}`, headers: user.headers, payload: { content: 'Lighthouse keeper Morwenna', base_version: entry.version } }),
      turnOn(t, user, keys),
    ]);
    if (saved.statusCode === 409) expect(saved.json().error.message).toBe(vaultMessages.errors.sealedOnly);
    else expect(saved.statusCode).toBe(200);
    // A second tab still holding readable words is refused now, whatever the first one's luck.
    const late = await t.app.inject({ method: 'PATCH', url: `/api/entries/${entry.id}`, headers: user.headers, payload: { content: 'Morwenna again' } });
    expect(late.statusCode).toBe(409);

    // The server's pass (no tab needed) seals what is left.
    await sealVaults(t.ctx);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ state: 'on' });
    for (const row of await rows(user.id)) expect(row).toMatchObject({ content: '', title: null });
    for (const word of ['Morwenna', 'lighthouse']) expect(await databaseCanRead(t.ctx, user.id, word)).toBe(false);
  });
});
