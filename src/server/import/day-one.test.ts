import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { dayOneText, fileKey, parseDayOne, unescapeDayOne } from '../../shared/import/day-one';
import { fixture } from '../test/import';

const journal = () => JSON.parse(fixture('dayone-journal.json').toString('utf8')) as { entries: Record<string, unknown>[] };
const trip = () => JSON.parse(fixture('dayone/brisbane-trip.json').toString('utf8')) as { entries: Record<string, unknown>[] };

describe('reading a Day One JSON export', () => {
  it('dates each entry in its own time zone and keeps that zone; the heading is the title; tags kept', () => {
    const entries = parseDayOne(journal(), 'UTC');
    expect(entries.map((e) => [e.entryDate, e.timeZone, e.title, e.tags])).toEqual([
      // 03:30 UTC on the 15th is the evening of the 14th in Los Angeles. Starred: the tag "starred".
      ['2023-03-14', 'America/Los_Angeles', "Dinner at Luca's", ['food', 'friends', 'starred']],
      // The same instant: New Year's Eve in New York, New Year's Day in Tokyo.
      ['2023-12-31', 'America/New_York', null, []],
      ['2024-01-01', 'Asia/Tokyo', 'Morning in Tokyo', ['travel', 'japan']],
    ]);
    expect(entries[0]).toMatchObject({ origin: 'dayone:6D2B9A4C3E1F4B7A8C9D0E1F2A3B4C5D', createdAt: '2023-03-15T03:30:00.000Z', updatedAt: '2023-03-15T04:02:11.000Z', source: 'web' });
  });

  it('unescapes Day One’s backslashed punctuation and drops attachment placeholders from the text', () => {
    const [dinner, eve, tokyo] = parseDayOne(journal(), 'UTC');
    expect(dinner!.content).toBe('We finally tried the new place on 5th. The pasta was great!\n\nThings to remember:\n\n- the tiramisu (share it next time)\n- call Mom #soon');
    expect(eve!.content).toBe("Quiet New Year's Eve at home. Watched the fireworks from the window.");
    expect(tokyo!.content).toBe('First sunrise of the year (hatsuhinode) 1.5 km from the hotel.');
    expect(unescapeDayOne('a\\\\b \\_c\\_ \\* \\[x\\]')).toBe('a\\b _c_ * [x]');
  });

  it('keeps a heading too long for a title as the first line, and text without a heading untitled', () => {
    const long = 'x'.repeat(250);
    const [entry] = parseDayOne({ metadata: {}, entries: [{ uuid: 'L', creationDate: '2024-01-01T12:00:00Z', text: `# ${long}\nbody` }] }, 'UTC');
    expect([entry!.title, entry!.content]).toEqual([null, `${long}\nbody`]);
    expect(dayOneText('#hashtag is not a heading')).toEqual({ title: null, content: '#hashtag is not a heading' });
  });

  it('finds photos in the ZIP by md5, in their order in the entry; counts those named but missing', () => {
    const files = new Map([
      [fileKey('photos', 'MD5_LIBERTY'), 'photos/md5_liberty.jpeg'],
      [fileKey('photos', 'MD5_SUNRISE'), 'photos/md5_sunrise.jpeg'],
    ]);
    const [sunrise, koala, liberty, koalas] = parseDayOne(trip(), 'UTC', files);
    expect(sunrise!.photos.map((p) => p.path)).toEqual(['photos/md5_sunrise.jpeg']);
    // A photo-only entry with its photo missing from the ZIP.
    expect([koala!.title, koala!.content, koala!.photos, koala!.leftOut]).toEqual([null, '', [], [{ reason: 'photo_missing', example: 'MD5_KOALA.png' }]]);
    expect(liberty!.photos.map((p) => p.path)).toEqual(['photos/md5_liberty.jpeg']);
    expect(liberty!.leftOut).toEqual([{ reason: 'photo_missing', example: 'd41d8cd98f00b204e9800998ecf8427e.jpeg' }]);
    // A video is named, to be counted as left out; so is a recording missing from the ZIP.
    expect(koalas!.leftOut).toEqual([
      { reason: 'video', example: '6a1b2c3d4e5f60718293a4b5c6d7e8f9.mov' },
      { reason: 'audio_missing', example: '7b2c3d4e5f60718293a4b5c6d7e8f90a.m4a' },
    ]);
    expect(koalas!.audios).toEqual([]);
    expect(koalas!.content).toBe('Koalas at Lone Pine. One fell asleep mid-bite.');
  });

  it('names a Day One recording as the .m4a file it is, not by its codec (format "aac"), keyed by its entry and identifier', () => {
    const entry = (files: Map<string, string> | null) =>
      parseDayOne(
        { metadata: {}, entries: [{ uuid: 'A', creationDate: '2024-01-01T12:00:00Z', text: 'Voice note', audios: [{ identifier: 'ID1', md5: 'ab12cd', format: 'aac' }] }] },
        'UTC',
        files,
      )[0]!;
    // A Journal.json alone: named only, to be brought in by the ZIP.
    expect(entry(null)).toMatchObject({ leftOut: [], audios: [{ path: null, fileName: 'ab12cd.m4a', sourceKey: 'import:A:ID1', transcript: null, transcriptInText: false }] });
    // In a ZIP, the name the file has there.
    expect(entry(new Map([[fileKey('audios', 'ab12cd'), 'audios/ab12cd.m4a']]))).toMatchObject({ leftOut: [], audios: [{ path: 'audios/ab12cd.m4a', fileName: 'ab12cd.m4a' }] });
    expect(entry(new Map()).leftOut).toEqual([{ reason: 'audio_missing', example: 'ab12cd.m4a' }]);
  });

  it('keeps a recording’s transcript, and knows when the entry’s text holds it already', () => {
    const [inText, apart, odd] = parseDayOne(
      {
        metadata: {},
        entries: [
          { uuid: 'T1', creationDate: '2024-01-01T12:00:00Z', text: 'On the ferry\\.\n\nGulls   everywhere\\!', audios: [{ identifier: 'R1', md5: 'aa', format: 'm4a', transcription: 'Gulls everywhere!', date: '2024-01-01T11:58:00Z' }] },
          { uuid: 'T2', creationDate: '2024-01-02T12:00:00Z', text: 'On the bus', audios: [{ identifier: 'R2', md5: 'bb', format: 'm4a', transcription: ' Rain again. ' }] },
          // A transcript that is not text, and a date that is not one, are passed over.
          { uuid: 'T3', creationDate: '2024-01-03T12:00:00Z', audios: [{ identifier: 'R3', md5: 'cc', format: 'm4a', transcription: { text: 'x' }, date: 'soon' }] },
        ],
      },
      'UTC',
    );
    expect(inText!.audios[0]).toMatchObject({ transcript: 'Gulls everywhere!', transcriptInText: true, recordedAt: '2024-01-01T11:58:00.000Z' });
    expect(apart!.audios[0]).toMatchObject({ transcript: 'Rain again.', transcriptInText: false, recordedAt: null });
    expect(odd!.audios[0]).toMatchObject({ transcript: null, transcriptInText: false, recordedAt: null });
  });

  it('keeps the photos of a Journal.json alone as names, to be brought in by the ZIP later', () => {
    const [sunrise] = parseDayOne(trip(), 'UTC');
    expect(sunrise!.photos).toEqual([{ path: null, fileName: 'MD5_SUNRISE.jpeg', origin: 'dayone-photo:5F0C2B7E1D3A4C8B9E6F0A1B2C3D4E51:9A8B7C6D5E4F30211203F4E5D6C7B8A9', originalId: undefined }]);
    expect(sunrise!.leftOut).toEqual([]);
  });

  it('dates an entry without a known time zone in the user’s zone', () => {
    const doc = { metadata: { version: '1.0' }, entries: [{ uuid: 'U1', creationDate: '2024-07-01T02:00:00Z', timeZone: 'Mars/Olympus', text: 'hi' }] };
    expect(parseDayOne(doc, 'America/Chicago').map((e) => [e.entryDate, e.timeZone])).toEqual([['2024-06-30', 'America/Chicago']]);
  });

  it('refuses the whole file when one entry has no real date, saying which', () => {
    const doc = journal();
    doc.entries[1]!.creationDate = 'yesterday';
    expect(() => parseDayOne(doc, 'UTC')).toThrow(messages.importer.badEntry(2, '"yesterday" is not a date'));
    expect(() => parseDayOne({ metadata: {}, entries: [{ text: 'no uuid' }] }, 'UTC')).toThrow(/Entry 1 of the file could not be read/);
  });

  it('keeps the first ten tags as tags and the rest as a last line of the text', () => {
    const tags = Array.from({ length: 12 }, (_, i) => `tag ${i + 1}`);
    const [entry] = parseDayOne({ metadata: {}, entries: [{ uuid: 'T', creationDate: '2024-01-01T12:00:00Z', text: 'Body', tags }] }, 'UTC');
    expect(entry!.tags).toEqual(tags.slice(0, 10));
    expect(entry!.content).toBe('Body\n\n#tag_11 #tag_12');
  });
});
