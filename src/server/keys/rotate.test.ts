import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { masterKeyId, SYSTEM_SUBJECT } from '../crypto/encryption';
import { createEntry, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildSmsTestApp, textJournal, type SmsTestApp } from '../test/sms';
import { bearer, buildUser, signIn, uniquePhone } from '../test/factories';
import { rotateMasterKey } from './rotate';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const idB = masterKeyId(Buffer.from(keyB, 'base64'));
const PHOTO_MAGIC = Buffer.from('JLPHOTO2', 'latin1');

interface Person extends JournalTestUser {
  phone: string;
}

async function person(t: SmsTestApp): Promise<Person> {
  const user = await buildUser(t, { timezone: 'UTC' });
  return { id: user.id, phone: user.phone, token: '', headers: bearer(await signIn(t, user)) };
}

/** The same person's requests on another instance (sessions are signed with each instance's key). */
async function on(t: SmsTestApp, who: Person): Promise<Person> {
  return { ...who, headers: bearer(await signIn(t, who)) };
}

async function journal(t: SmsTestApp, who: Person): Promise<JournalEntry[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/entries', headers: (await on(t, who)).headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { entries: JournalEntry[] }).entries;
}

/** What a reader sees: text, title, tags and photo names, not links (each instance signs its own). */
const readable = (entries: JournalEntry[]) =>
  entries.map((e) => ({ id: e.id, title: e.title, content: e.content, tags: e.tags, photos: e.photos.map((p) => p.file_name) }));

async function photoBytes(t: SmsTestApp, who: Person): Promise<Buffer[]> {
  const photos = (await journal(t, who)).flatMap((e) => e.photos);
  return Promise.all(
    photos.map(async (p) => {
      const res = await t.app.inject({ method: 'GET', url: p.url });
      expect(res.statusCode).toBe(200);
      return res.rawPayload;
    }),
  );
}

describe('jotline keys rotate', () => {
  let storage: string;
  let a: SmsTestApp;
  let b: SmsTestApp;
  let people: Person[];
  let before: Map<string, ReturnType<typeof readable>>;
  let picturesBefore: Buffer[];
  const instance = (env: Record<string, string>) => buildSmsTestApp({ sameDatabaseAs: a, env: { STORAGE_URL: storage, ...env } });

  beforeAll(async () => {
    storage = mkdtempSync(join(tmpdir(), 'jotline-keys-'));
    a = await buildSmsTestApp({ env: { STORAGE_URL: storage, MASTER_KEY: keyA } });
    a.clock.set(new Date('2026-03-10T15:00:00Z'));
    people = [await person(a), await person(a), await person(a)];
    for (const [i, who] of people.entries()) {
      await createEntry(a, who, { content: `Private thoughts of person ${i}`, title: `Day ${i}`, tags: ['family', `t${i}`], entry_date: '2026-03-09' });
      await createEntry(a, who, { content: `A second page for ${i}`, entry_date: '2026-03-08' });
    }
    // A photo, and a text into the journal; a stranger's text leaves a stored reply body.
    const [first, second] = people as [Person, Person];
    const entry = await createEntry(a, first, { content: 'beach day', entry_date: '2026-03-07' });
    const form = await multipart({}, [{ name: 'sunset-with-nora.jpg', bytes: await testImage('jpeg', { width: 120, height: 90 }) }]);
    const upload = await a.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...first.headers, ...form.headers }, payload: form.payload });
    expect(upload.statusCode, upload.body).toBe(201);
    await textJournal(a, second.phone, 'Texted from the bus');
    await textJournal(a, uniquePhone(), 'who is this');

    before = new Map();
    for (const who of people) before.set(who.id, readable(await journal(a, who)));
    picturesBefore = await photoBytes(a, first);
    expect(before.get(first.id)!.map((e) => e.content)).toContain('A second page for 0');
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    rmSync(storage, { recursive: true, force: true });
  });

  it('reads both keys while it runs, resumes after an interruption, keeps requests working and leaves nothing under the old key', async () => {
    // Every instance restarts with the new key and the old one beside it: everything reads as before.
    b = await instance({ MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA });
    b.clock.set(a.clock.now());
    for (const who of people) expect(readable(await journal(b, who))).toEqual(before.get(who.id));

    // Stopped (Ctrl-C) after the first user: progress is kept.
    const stop = new AbortController();
    const first = await rotateMasterKey(b.ctx, { batchSize: 1, signal: stop.signal, onProgress: () => stop.abort() });
    expect(first).toMatchObject({ finished: false, resumedAfterUser: null, counts: { users: 1 } });

    // Meanwhile an instance cannot start without the old key, nor with the old key alone.
    await expect(instance({ MASTER_KEY: keyB })).rejects.toThrow(/MASTER_KEY_PREVIOUS: the rotation from key .* is not finished/);
    await expect(instance({ MASTER_KEY: keyA })).rejects.toThrow(/is being replaced by key/);

    // The second run resumes after that user while people keep writing and reading.
    const [writer, reader] = people as [Person, Person];
    const writes = (async () => {
      const results: number[] = [];
      for (let i = 0; i < 5; i++) {
        const created = await b.app.inject({ method: 'POST', url: '/api/entries', headers: (await on(b, writer)).headers, payload: { content: `written during rotation ${i}`, entry_date: '2026-03-10' } });
        results.push(created.statusCode);
        const listed = await b.app.inject({ method: 'GET', url: '/api/entries?q=second', headers: (await on(b, reader)).headers });
        results.push(listed.statusCode);
      }
      return results;
    })();
    const [second, statuses] = await Promise.all([rotateMasterKey(b.ctx, { batchSize: 1 }), writes]);
    expect(statuses.every((s) => s === 200 || s === 201), statuses.join()).toBe(true);
    expect(second.finished).toBe(true);
    expect(second.resumedAfterUser).not.toBeNull();
    expect(second.counts.users).toBe(people.length - 1);
    expect(second.counts.unreadable).toBe(0);
    expect(first.counts.entries + second.counts.entries).toBeGreaterThanOrEqual(7);
    expect(first.counts.photoNames + second.counts.photoNames).toBe(1);
    expect(first.counts.photoFiles + second.counts.photoFiles).toBe(2);
    expect(second.counts.messages).toBeGreaterThanOrEqual(1);

    // No value encrypted with the old key remains: every encrypted value names key B and key B alone decrypts it.
    const db = b.ctx.db;
    const entries = await db.selectFrom('journal_entries').select(['user_id', 'content', 'title', 'tags']).execute();
    const salts = new Map((await db.selectFrom('profiles').select(['id', 'key_salt']).execute()).map((p) => [p.id, p.key_salt]));
    const onlyB = await instance({ MASTER_KEY: keyB });
    try {
      for (const row of entries) {
        for (const value of [row.content, row.title, row.tags].filter((v): v is string => v !== null)) {
          expect(b.ctx.cipher.keyIdOf(value)).toBe(idB);
          expect(() => onlyB.ctx.cipher.decryptStrict(row.user_id, salts.get(row.user_id)!, value)).not.toThrow();
        }
      }
      const photos = await db.selectFrom('journal_photos').select(['user_id', 'file_name', 'file_path', 'thumb_path']).execute();
      for (const photo of photos) {
        expect(b.ctx.cipher.keyIdOf(photo.file_name)).toBe(idB);
        for (const key of [photo.file_path, photo.thumb_path]) {
          const bytes = readFileSync(join(storage, key));
          expect(bytes.subarray(0, PHOTO_MAGIC.length + 8).toString('latin1')).toBe(`JLPHOTO2${idB}`);
        }
      }
      const bodies = await db.selectFrom('sms_messages').select('body').where('body', 'is not', null).execute();
      expect(bodies.length).toBeGreaterThan(0);
      for (const { body } of bodies) {
        expect(b.ctx.cipher.keyIdOf(body!)).toBe(idB);
        expect(onlyB.ctx.cipher.decryptStrict(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, body!)).not.toMatch(/^ENC:/);
      }

      // With only the new key everything reads as before (plus what was written meanwhile), photos too.
      onlyB.clock.set(a.clock.now());
      for (const who of people) {
        const now = readable(await journal(onlyB, who)).filter((e) => !e.content.startsWith('written during rotation'));
        expect(now).toEqual(before.get(who.id));
      }
      expect((await journal(onlyB, writer)).filter((e) => e.content.startsWith('written during rotation'))).toHaveLength(5);
      expect(await photoBytes(onlyB, people[0]!)).toEqual(picturesBefore);
    } finally {
      await onlyB.close();
    }

    // Done is done: a further run changes nothing, and the retired key no longer starts an instance.
    expect(await rotateMasterKey(b.ctx)).toMatchObject({ finished: true, alreadyFinished: true, counts: { users: 0, entries: 0 } });
    await expect(instance({ MASTER_KEY: keyA })).rejects.toThrow(/was retired on/);
  }, 120_000);

  it('refuses to run without the old key beside the new one, or with the same key twice', async () => {
    await expect(rotateMasterKey(a.ctx)).rejects.toThrow(/MASTER_KEY_PREVIOUS to the key it replaces/);
    const same = await instance({ MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyB });
    try {
      await expect(rotateMasterKey(same.ctx)).rejects.toThrow(/are the same key/);
    } finally {
      await same.close();
    }
  });
});
