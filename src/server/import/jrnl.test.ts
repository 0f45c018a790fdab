import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { jrnlTags, looksLikeJrnl, parseJrnl, splitTitle } from '../../shared/import/jrnl';
import { parseJrnlJson } from '../../shared/import/jrnl-json';
import { fixture } from '../test/import';

const NOW = new Date('2026-05-10T12:00:00Z');
const read = (name: string, zone = 'UTC') => parseJrnl(fixture(`jrnl/${name}`).toString('utf8'), zone, NOW);
const summary = (entries: ReturnType<typeof read>) => entries.map((e) => ({ at: e.createdAt, title: e.title, content: e.content, tags: e.tags }));

describe('reading a jrnl journal as jrnl reads it', () => {
  it('takes every entry of a journal in the default timeformat: the first line is the title, punctuation kept', () => {
    const entries = read('default-timeformat.txt');
    expect(summary(entries)).toEqual([
      { at: '2019-07-18T14:23:00.000Z', title: 'The first entry', content: 'Time machines are hard to build. Mine is still in the garage.', tags: [] },
      // A partial date: jrnl (dateutil) fills the missing day with the 1st.
      { at: '2019-07-01T14:23:00.000Z', title: 'A partial date', content: 'jrnl reads a missing day as the first of the month.', tags: [] },
      {
        at: '2022-06-01T07:15:00.000Z',
        title: 'Started the new job today. Nervous but excited @work',
        content: 'Met the team, set up my laptop.\nLunch with @Sam at the taco place.',
        tags: ['work', 'sam'],
      },
      { at: '2022-06-02T21:40:00.000Z', title: 'Long day! Did not get much done.', content: 'Tomorrow: finish the onboarding docs. @work', tags: ['work'] },
      // Starred: the "*" leaves the title and the entry carries the tag "starred".
      { at: '2022-06-03T09:05:00.000Z', title: 'Call with the landlord about the leak.', content: 'He says Monday.', tags: ['starred'] },
      {
        at: '2022-06-04T18:00:00.000Z',
        title: 'Ported the parser to @C++ and tested it on @os/2; @c# next.',
        content: 'Footnotes look like this[1] and stay in the text.\n[1] A footnote line, not an entry.\n[this] is not a date either.',
        tags: ['c++', 'os/2', 'c#'],
      },
      // Only a title (the journal keeps it as the entry's text: write-chunk.ts).
      { at: '2022-06-05T08:30:00.000Z', title: 'Called mom.', content: '', tags: [] },
      // One line with nothing after it: jrnl splits it at its first sentence.
      { at: '2022-06-06T22:10:00.000Z', title: 'Two sentences on one line.', content: 'The second one is the body.', tags: [] },
      { at: '2022-06-07T06:45:00.000Z', title: 'Sunrise run, 5 km in 27:30!', content: '', tags: [] },
    ]);
    expect(entries.map((e) => e.entryDate)).toEqual(['2019-07-18', '2019-07-01', '2022-06-01', '2022-06-02', '2022-06-03', '2022-06-04', '2022-06-05', '2022-06-06', '2022-06-07']);
  });

  it('reads header times as wall-clock times in the user’s zone, and keeps that zone', () => {
    const [first] = read('default-timeformat.txt', 'America/New_York');
    expect([first!.entryDate, first!.createdAt, first!.timeZone]).toEqual(['2019-07-18', '2019-07-18T18:23:00.000Z', 'America/New_York']);
  });

  it('reads every one-line entry of a file of one-liners (jrnl Called mom.) as a title', () => {
    expect(summary(read('one-liners.txt'))).toEqual([
      { at: '2024-03-01T09:00:00.000Z', title: 'Called mom.', content: '', tags: [] },
      { at: '2024-03-02T18:30:00.000Z', title: 'Ran 5k.', content: '', tags: [] },
      { at: '2024-03-03T21:15:00.000Z', title: 'Finished the book!', content: '', tags: [] },
    ]);
  });

  it('reads the timeformat variants: day-first dots, US dates with AM/PM, seconds', () => {
    expect(summary(read('little-endian.txt'))).toEqual([
      { at: '2013-06-09T15:39:00.000Z', title: 'My first entry.', content: 'Everything is alright', tags: [] },
      { at: '2013-07-10T15:40:00.000Z', title: 'Life is good.', content: "But I'm better.", tags: [] },
    ]);
    expect(read('us-12-hour.txt').map((e) => [e.createdAt, e.title, e.tags])).toEqual([
      ['2013-06-09T15:39:00.000Z', 'Picked up the new bike.', ['cycling']],
      ['2021-12-24T23:30:00.000Z', 'Christmas Eve. Everyone asleep but me.', ['family']],
    ]);
    expect(read('seconds-12-hour.txt').map((e) => [e.createdAt, e.title, e.content])).toEqual([
      ['2021-12-24T23:30:00.000Z', 'Christmas Eve. Everyone asleep but me.', 'Wrapping the last presents. @family'],
      ['2021-12-25T08:00:15.000Z', 'Snow!', ''],
    ]);
  });

  it('reads a jrnl 1.x journal: dates without brackets, bracketed lines are text, a trailing * stars', () => {
    expect(summary(read('jrnl-1x.txt'))).toEqual([
      { at: '2010-06-10T15:00:00.000Z', title: 'A life without chocolate is like a bad analogy.', content: '', tags: [] },
      {
        at: '2013-06-10T15:40:00.000Z',
        title: 'He said "[this] is the best time to be alive".',
        content: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n[2019-08-03 12:55] Some chat log or something',
        tags: [],
      },
      { at: '2014-01-02T09:00:00.000Z', title: 'Back at work after the holidays.', content: 'Inbox zero by noon. @work', tags: ['work', 'starred'] },
    ]);
  });

  it('gives an entry the same origin in the text journal and in jrnl’s JSON export of it', () => {
    const text = read('default-timeformat.txt');
    const json = parseJrnlJson(JSON.parse(fixture('jrnl/export.json').toString('utf8')), 'UTC', NOW);
    expect(json.map((e) => [e.title, e.content, e.tags])).toEqual([
      ['Started the new job today. Nervous but excited @work', 'Met the team, set up my laptop.\nLunch with @Sam at the taco place.', ['work', 'sam']],
      ['Long day! Did not get much done.', 'Tomorrow: finish the onboarding docs. @work', ['work']],
      ['Call with the landlord about the leak.', 'He says Monday.', ['starred']],
      ['Went to the lake.', 'Only in the exported copy.', []],
    ]);
    const textOrigins = new Set(text.map((e) => e.origin));
    expect(json.map((e) => textOrigins.has(e.origin))).toEqual([true, true, true, false]);
    // And the same entries twice give the same origins.
    expect(read('default-timeformat.txt').map((e) => e.origin)).toEqual(text.map((e) => e.origin));
  });

  it('knows a jrnl file by its first line and refuses a date that does not exist, saying where', () => {
    expect(looksLikeJrnl('\n[2022-06-01 07:15] Hi.')).toBe(true);
    expect(looksLikeJrnl('2022-06-01 07:15 Hi.')).toBe(true);
    expect(looksLikeJrnl('Dear diary,\n[2022-06-01 07:15] Hi.')).toBe(false);
    expect(looksLikeJrnl('[1] a footnote')).toBe(false);
    expect(() => parseJrnl('[2022-06-01 07:15] Fine.\n[2022-02-30 07:15] Never happened.', 'UTC', NOW)).toThrow(
      messages.importer.badEntry(2, 'line 2 has no real date and time'),
    );
  });
});

describe('jrnl’s title and tag rules', () => {
  it('splits a text of one line at its first sentence, closing quotes and brackets included', () => {
    expect(splitTitle('Version 1.2 shipped. Party at 6.')).toEqual({ title: 'Version 1.2 shipped.', body: 'Party at 6.' });
    expect(splitTitle('He said "yes." Then left.')).toEqual({ title: 'He said "yes."', body: 'Then left.' });
    expect(splitTitle('No punctuation here')).toEqual({ title: 'No punctuation here', body: '' });
    expect(splitTitle('First line. Still the title\nBody.')).toEqual({ title: 'First line. Still the title', body: 'Body.' });
  });

  it('finds tags after whitespace only (not in e-mail addresses), lower-cased', () => {
    expect(jrnlTags('@Work with @C++ at me@example.com and (@paren) @os/2, @a-b_c')).toEqual(['work', 'c++', 'os/2', 'a-b_c']);
  });
});
