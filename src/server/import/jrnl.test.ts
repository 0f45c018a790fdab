import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { firstSentence, looksLikeJrnl, parseJrnl } from './jrnl';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

describe('reading a jrnl plain-text journal', () => {
  it('splits entries at their headers: the first sentence is the title, @tags become tags', () => {
    const entries = parseJrnl(fixture('jrnl-journal.txt'), 'America/New_York');
    expect(entries.map((e) => ({ date: e.entryDate, title: e.title, content: e.content, tags: e.tags }))).toEqual([
      { date: '2022-06-01', title: 'Started the new job today', content: 'Nervous but excited @work\nMet the team, set up my laptop.\nLunch with @Sam at the taco place.', tags: ['work', 'Sam'] },
      { date: '2022-06-02', title: 'Long day!', content: 'Did not get much done.\n\nTomorrow: finish the onboarding docs. @work', tags: ['work'] },
      // A starred entry's marker is not part of its title.
      { date: '2022-06-03', title: 'Call with the landlord about the leak', content: 'He says Monday.', tags: [] },
    ]);
    // Header times are the writer's local time.
    expect(entries[0]!.createdAt).toBe('2022-06-01T11:15:00.000Z');
  });

  it('reads jrnl 2’s default 12-hour time format', () => {
    const entries = parseJrnl(fixture('jrnl-journal-12h.txt'), 'UTC');
    expect(entries.map((e) => [e.entryDate, e.createdAt, e.title, e.tags])).toEqual([
      ['2021-12-24', '2021-12-24T23:30:00.000Z', 'Christmas Eve', ['family']],
      ['2021-12-25', '2021-12-25T08:00:00.000Z', 'Snow!', []],
    ]);
  });

  it('gives the same entry the same origin every time, and different entries different ones', () => {
    const a = parseJrnl(fixture('jrnl-journal.txt'), 'UTC');
    const b = parseJrnl(fixture('jrnl-journal.txt'), 'UTC');
    expect(a.map((e) => e.origin)).toEqual(b.map((e) => e.origin));
    expect(new Set(a.map((e) => e.origin)).size).toBe(3);
  });

  it('knows a jrnl file by its first line and refuses impossible dates', () => {
    expect(looksLikeJrnl('\n[2022-06-01 07:15] Hi.')).toBe(true);
    expect(looksLikeJrnl('Dear diary,\n[2022-06-01 07:15] Hi.')).toBe(false);
    expect(() => parseJrnl('[2022-02-30 07:15] Never happened.', 'UTC')).toThrow(messages.importer.badEntry(1, 'line 1 has no real date and time'));
  });

  it('takes the first sentence as the title', () => {
    expect(firstSentence('Version 1.2 shipped. Party at 6.')).toEqual({ title: 'Version 1.2 shipped', rest: 'Party at 6.' });
    expect(firstSentence('No punctuation here')).toEqual({ title: 'No punctuation here', rest: '' });
  });
});

describe('a jrnl first sentence too long for a title', () => {
  it('stays whole at the start of the text', () => {
    const long = `${'word '.repeat(60).trim()}.`;
    const [entry] = parseJrnl(`[2022-01-01 10:00] ${long} And more.\nBody.`, 'UTC');
    expect(entry!.title).toBeNull();
    expect(entry!.content).toBe(`${long} And more.\nBody.`);
  });
});
