import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_TEXT_BYTES } from '../../shared/import';
import type { JournalEntry } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { journalUser, listEntries, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { importsSettled } from './runner';
import { fixture, importFile, importStatus, postImport } from '../test/import';

describe('importing a jrnl journal: POST /api/import, then GET /api/imports/:id', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-05-10T12:00:00Z'));
  });
  afterAll(() => t.close());

  const allEntries = async (user: JournalTestUser) => (await listEntries(t, user, '?limit=100')).entries;
  const byDate = (entries: JournalEntry[]) => [...entries].sort((a, b) => (a.created_at < b.created_at ? -1 : 1));

  it('answers 202 with the import’s id at once, and the import brings every entry in as jrnl reads it', async () => {
    const user = await journalUser(t, { timezone: 'America/New_York' });
    const res = await postImport(t, user.headers, fixture('jrnl/default-timeformat.txt'), 'journal.txt');
    expect(res.statusCode, res.body).toBe(202);
    const { import_id: id } = res.json();
    expect(Object.keys(res.json())).toEqual(['import_id']);
    await importsSettled(t.app.ctx);
    expect(await importStatus(t, user.headers, id)).toEqual({ id, status: 'done', total: 9, imported: 9, skipped: 0, photos_imported: 0, photos_skipped: 0, reasons: [], error: null });

    const entries = byDate(await allEntries(user));
    expect(entries.map((e) => [e.entry_date, e.title, e.content.split('\n')[0], e.tags, e.time_zone])).toEqual([
      ['2019-07-01', 'A partial date', 'jrnl reads a missing day as the first of the month.', [], 'America/New_York'],
      ['2019-07-18', 'The first entry', 'Time machines are hard to build. Mine is still in the garage.', [], 'America/New_York'],
      ['2022-06-01', 'Started the new job today. Nervous but excited @work', 'Met the team, set up my laptop.', ['work', 'sam'], 'America/New_York'],
      ['2022-06-02', 'Long day! Did not get much done.', 'Tomorrow: finish the onboarding docs. @work', ['work'], 'America/New_York'],
      ['2022-06-03', 'Call with the landlord about the leak.', 'He says Monday.', ['starred'], 'America/New_York'],
      ['2022-06-04', 'Ported the parser to @C++ and tested it on @os/2; @c# next.', 'Footnotes look like this[1] and stay in the text.', ['c++', 'os/2', 'c#'], 'America/New_York'],
      // An entry that is only a title keeps it, punctuation and all, as its text.
      ['2022-06-05', null, 'Called mom.', [], 'America/New_York'],
      ['2022-06-06', 'Two sentences on one line.', 'The second one is the body.', [], 'America/New_York'],
      ['2022-06-07', null, 'Sunrise run, 5 km in 27:30!', [], 'America/New_York'],
    ]);
    // Header times are the writer's wall-clock times, in the user's zone.
    expect(entries[1]!.created_at).toBe('2019-07-18T18:23:00.000Z');

    // Encrypted at rest like every entry.
    const rows = await t.app.ctx.db.selectFrom('journal_entries').select(['content', 'title', 'tags']).where('user_id', '=', user.id).execute();
    for (const row of rows) {
      expect(row.content.startsWith('ENC:')).toBe(true);
      expect(row.content).not.toContain('landlord');
    }
  });

  it('imports an entry dated in the future, and names it in the summary under future_date', async () => {
    const user = await journalUser(t, { timezone: 'UTC' });
    const file = Buffer.from('[2026-05-09 08:00] Yesterday.\n\n[2099-01-01 09:00] Note to my future self.\n');
    const summary = await importFile(t, user.headers, file, 'journal.txt');
    expect(summary).toMatchObject({ status: 'done', total: 2, imported: 2, skipped: 0 });
    expect(summary.reasons).toEqual([{ reason: 'future_date', count: 1, examples: ['“Note to my future self.” (2099-01-01)'] }]);
    expect((await allEntries(user)).map((e) => e.entry_date)).toEqual(['2099-01-01', '2026-05-09']);
  });

  it('reads an empty jrnl file as a journal of no entries', async () => {
    const user = await journalUser(t);
    expect(await importFile(t, user.headers, Buffer.from('\n\n'), 'journal.txt')).toMatchObject({ status: 'done', total: 0, imported: 0, reasons: [] });
  });

  it('imports a file of one-liners whole (it used to import none), and adds nothing the second time, saying why', async () => {
    const user = await journalUser(t);
    expect(await importFile(t, user.headers, fixture('jrnl/one-liners.txt'), 'journal.txt')).toMatchObject({ status: 'done', total: 3, imported: 3, skipped: 0 });
    expect(byDate(await allEntries(user)).map((e) => e.content)).toEqual(['Called mom.', 'Ran 5k.', 'Finished the book!']);
    const again = await importFile(t, user.headers, fixture('jrnl/one-liners.txt'), 'journal.txt');
    expect(again).toMatchObject({ status: 'done', total: 3, imported: 0, skipped: 3 });
    expect(again.reasons).toEqual([{ reason: 'already_imported', count: 3, examples: ['2024-03-01 “Called mom.”', '2024-03-02 “Ran 5k.”', '2024-03-03 “Finished the book!”'] }]);
    expect(messages.importer.reasons.already_imported(3)).toBe('3 entries were already in your journal');
    expect(await allEntries(user)).toHaveLength(3);
  });

  it('reads jrnl’s timeformat variants and jrnl 1.x files', async () => {
    const user = await journalUser(t);
    for (const name of ['little-endian.txt', 'us-12-hour.txt', 'jrnl-1x.txt']) {
      expect(await importFile(t, user.headers, fixture(`jrnl/${name}`), name), name).toMatchObject({ status: 'done', skipped: 0, error: null });
    }
    // The same Christmas Eve entry, written with seconds: already in the journal.
    const seconds = await importFile(t, user.headers, fixture('jrnl/seconds-12-hour.txt'), 'journal.txt');
    expect(seconds).toMatchObject({ status: 'done', total: 2, imported: 1, skipped: 1 });
    const days = (await allEntries(user)).map((e) => e.entry_date).sort();
    expect(days).toEqual(['2010-06-10', '2013-06-09', '2013-06-09', '2013-06-10', '2013-07-10', '2014-01-02', '2021-12-24', '2021-12-25']);
  });

  it('takes jrnl’s JSON export, and knows its entries from the text journal', async () => {
    const user = await journalUser(t);
    await importFile(t, user.headers, fixture('jrnl/default-timeformat.txt'), 'journal.txt');
    const res = await importFile(t, user.headers, fixture('jrnl/export.json'), 'journal.json');
    expect(res).toMatchObject({ status: 'done', total: 4, imported: 1, skipped: 3 });
    expect((await allEntries(user)).find((e) => e.entry_date === '2022-06-08')).toMatchObject({ title: 'Went to the lake.', content: 'Only in the exported copy.' });
  });

  it('imports an empty file as a journal of no entries', async () => {
    const user = await journalUser(t);
    for (const empty of ['', '\n\n  \n']) {
      expect(await importFile(t, user.headers, Buffer.from(empty), 'journal.txt')).toMatchObject({ status: 'done', total: 0, imported: 0, skipped: 0, error: null });
    }
  });

  it('refuses at once, with a clear 400, a file that is no journal or an encrypted jrnl journal', async () => {
    const user = await journalUser(t);
    const jrnlV3 = Buffer.concat([Buffer.from('JRNLv3'), Buffer.from([0, 30]), Buffer.from('{"salt":"c2FsdHNhbHRzYWx0c2FsdA=="}gAAAAABm')]);
    const cases: [Buffer, string, string][] = [
      [await testImage('png'), 'picture.png', messages.importer.unknownFormat],
      [Buffer.from('Dear diary, today was fine.'), 'notes.txt', messages.importer.unknownFormat],
      [Buffer.from('{"hello": "world"}'), 'data.json', messages.importer.unknownFormat],
      [jrnlV3, 'journal.txt', messages.importer.encrypted],
      [Buffer.from(`gAAAAABl${'c2VjcmV0IGpvdXJuYWwgdGV4dA'.repeat(4)}==`), 'journal.txt', messages.importer.encrypted],
    ];
    for (const [bytes, name, message] of cases) {
      const res = await postImport(t, user.headers, bytes, name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.message, name).toBe(message);
    }
    expect(await t.app.ctx.db.selectFrom('import_jobs').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('fails an import whose file turns out broken, saying why, and imports nothing of it', async () => {
    const user = await journalUser(t);
    const doc = JSON.parse(fixture('dayone-journal.json').toString('utf8'));
    doc.entries[2].creationDate = 'someday';
    const cases: [Buffer, string, string][] = [
      [Buffer.from('{"metadata": {"version": "1.0"}, "entries": [{"uuid": "A"'), 'Journal.json', messages.importer.brokenJson],
      [Buffer.from('PK\u0003\u0004 definitely not a real zip'), 'export.zip', messages.importer.brokenZip],
      [Buffer.from(JSON.stringify(doc)), 'Journal.json', messages.importer.badEntry(3, '"someday" is not a date')],
      [Buffer.from('[2022-06-01 07:15] Fine.\n[2022-02-30 07:15] Never happened.'), 'journal.txt', messages.importer.badEntry(2, 'line 2 has no real date and time')],
    ];
    for (const [bytes, name, message] of cases) {
      expect(await importFile(t, user.headers, bytes, name), name).toMatchObject({ status: 'failed', imported: 0, error: message });
    }
    expect(await allEntries(user)).toEqual([]);
  });

  it('asks for a file when none is sent', async () => {
    const user = await journalUser(t);
    const form = await multipart({ note: 'no file' });
    const res = await t.app.inject({ method: 'POST', url: '/api/import', headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect([res.statusCode, res.json().error.message]).toEqual([400, messages.importer.noFile]);
    const json = await t.app.inject({ method: 'POST', url: '/api/import', headers: user.headers, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
  });

  it('refuses a text journal over 20 MB, and a ZIP over 100 MB, with 413 while it is still arriving', async () => {
    const user = await journalUser(t);
    const text = Buffer.alloc(IMPORT_MAX_TEXT_BYTES + 1024 * 1024, 'a');
    text.write('[2022-06-01 07:15] A very long entry.\n');
    const zip = Buffer.alloc(101 * 1024 * 1024);
    zip.write('PK\u0003\u0004');
    for (const [bytes, name] of [
      [text, 'huge.txt'],
      [zip, 'export.zip'],
    ] as const) {
      const res = await postImport(t, user.headers, bytes, name);
      expect([res.statusCode, res.json().error.message], name).toEqual([413, messages.importer.tooLarge]);
    }
    // Nothing of the refused uploads is left in the photo store.
    expect(await t.app.ctx.db.selectFrom('import_jobs').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('shows an import to its owner only, and needs sign-in but not a running trial', async () => {
    const expired = await journalUser(t, { trialEnd: new Date('2026-05-01T00:00:00Z') });
    const res = await postImport(t, expired.headers, fixture('jrnl/one-liners.txt'), 'journal.txt');
    expect(res.statusCode).toBe(202);
    await importsSettled(t.app.ctx);
    const other = await journalUser(t);
    const peek = await t.app.inject({ method: 'GET', url: `/api/imports/${res.json().import_id}`, headers: other.headers });
    expect([peek.statusCode, peek.json().error.message]).toEqual([404, messages.importer.notFound]);
    expect((await postImport(t, {}, fixture('jrnl/one-liners.txt'))).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/imports/${res.json().import_id}` })).statusCode).toBe(401);
  });
});
