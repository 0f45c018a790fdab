import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { dayOneText, parseDayOne, unescapeDayOne } from './day-one';

const fixture = () => JSON.parse(readFileSync(join(__dirname, 'fixtures', 'dayone-journal.json'), 'utf8')) as { entries: Record<string, unknown>[] };

describe('reading a Day One JSON export', () => {
  it('takes the date from creationDate in the entry’s own time zone, the heading as title, tags kept', () => {
    const entries = parseDayOne(fixture(), 'UTC');
    expect(entries.map((e) => [e.entryDate, e.title, e.tags])).toEqual([
      // 03:30 UTC on the 15th is the evening of the 14th in Los Angeles.
      ['2023-03-14', "Dinner at Luca's", ['food', 'friends']],
      // The same instant: New Year's Eve in New York, New Year's Day in Tokyo.
      ['2023-12-31', null, []],
      ['2024-01-01', 'Morning in Tokyo', ['travel', 'japan']],
    ]);
    expect(entries[0]).toMatchObject({ origin: 'dayone:6D2B9A4C3E1F4B7A8C9D0E1F2A3B4C5D', createdAt: '2023-03-15T03:30:00.000Z', updatedAt: '2023-03-15T04:02:11.000Z', source: 'web' });
  });

  it('unescapes Day One’s backslashed punctuation and drops photo placeholders from the text', () => {
    const [dinner, eve, tokyo] = parseDayOne(fixture(), 'UTC');
    expect(dinner!.content).toBe('We finally tried the new place on 5th. The pasta was great!\n\nThings to remember:\n\n- the tiramisu (share it next time)\n- call Mom #soon');
    expect(eve!.content).toBe("Quiet New Year's Eve at home. Watched the fireworks from the window.");
    expect(tokyo!.content).toBe('First sunrise of the year (hatsuhinode) 1.5 km from the hotel.');
    expect(unescapeDayOne('a\\\\b \\_c\\_ \\* \\[x\\]')).toBe('a\\b _c_ * [x]');
  });

  it('keeps a heading too long for a title as the first line, and text without a heading untitled', () => {
    const long = 'x'.repeat(250);
    expect(dayOneText(`# ${long}\nbody`)).toEqual({ title: null, content: `${long}\nbody` });
    expect(dayOneText('#hashtag is not a heading')).toEqual({ title: null, content: '#hashtag is not a heading' });
  });

  it('attaches photos from the archive by md5, in their order in the entry', () => {
    const photos = new Map([
      ['photo_md5_second', { fileName: 'photo_md5_second.heic', bytes: Buffer.from('2') }],
      ['photo_md5_first', { fileName: 'photo_md5_first.jpeg', bytes: Buffer.from('1') }],
    ]);
    const [dinner, eve] = parseDayOne(fixture(), 'UTC', photos);
    expect(dinner!.photos.map((p) => p.fileName)).toEqual(['photo_md5_first.jpeg', 'photo_md5_second.heic']);
    expect(eve!.photos).toEqual([]);
  });

  it('dates an entry without a known time zone in the user’s zone', () => {
    const doc = { metadata: { version: '1.0' }, entries: [{ uuid: 'U1', creationDate: '2024-07-01T02:00:00Z', timeZone: 'Mars/Olympus', text: 'hi' }] };
    expect(parseDayOne(doc, 'America/Chicago')[0]!.entryDate).toBe('2024-06-30');
  });

  it('refuses the whole file when one entry has no real date, saying which', () => {
    const doc = fixture();
    doc.entries[1]!.creationDate = 'yesterday';
    expect(() => parseDayOne(doc, 'UTC')).toThrow(messages.importer.badEntry(2, '"yesterday" is not a date'));
    expect(() => parseDayOne({ metadata: {}, entries: [{ text: 'no uuid' }] }, 'UTC')).toThrow(/Entry 1 of the file could not be read/);
  });
});

describe('Day One tags past the ten an entry holds', () => {
  it('keeps the first ten as tags and the rest as a last line of the text', () => {
    const tags = Array.from({ length: 12 }, (_, i) => `tag ${i + 1}`);
    const [entry] = parseDayOne({ metadata: {}, entries: [{ uuid: 'T', creationDate: '2024-01-01T12:00:00Z', text: 'Body', tags }] }, 'UTC');
    expect(entry!.tags).toEqual(tags.slice(0, 10));
    expect(entry!.content).toBe('Body\n\n#tag_11 #tag_12');
  });
});
