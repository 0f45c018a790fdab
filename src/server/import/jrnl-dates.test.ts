import { describe, expect, it } from 'vitest';
import { dayOrder, parseJrnlDate } from '../../shared/import/jrnl-dates';

const NOW = new Date('2026-05-10T12:00:00Z');
const at = (blob: string, order: 'dmy' | 'mdy' = 'dmy') => {
  const read = parseJrnlDate(blob, order, NOW);
  return read && read !== 'invalid' ? `${read.day} ${read.time}:${String(read.seconds).padStart(2, '0')}` : read;
};

describe('jrnl’s bracketed dates', () => {
  it('reads the layouts timeformat and dateutil produce', () => {
    expect(at('2013-06-09 15:39')).toBe('2013-06-09 15:39:00');
    expect(at('2013-06-09 03:39:07 PM')).toBe('2013-06-09 15:39:07');
    expect(at('2013-06-09T15:39')).toBe('2013-06-09 15:39:00');
    expect(at('09.06.2013 15:39')).toBe('2013-06-09 15:39:00');
    expect(at('06/09/2013 3:39 pm', 'mdy')).toBe('2013-06-09 15:39:00');
    expect(at('June 9, 2013 3:39 PM')).toBe('2013-06-09 15:39:00');
    expect(at('Sun 09 Jun 2013 15:39')).toBe('2013-06-09 15:39:00');
    expect(at('9 June 2013')).toBe('2013-06-09 00:00:00');
    expect(at('12 AM 2013-06-09')).toBe(null);
  });

  it('completes partial dates as dateutil does: the missing day or month is the first', () => {
    expect(at('2019-07 14:23')).toBe('2019-07-01 14:23:00');
    expect(at('2019 14:23')).toBe('2019-01-01 14:23:00');
    // No year: this year, or last year when that would be weeks ahead.
    expect(at('June 9 15:39')).toBe('2025-06-09 15:39:00');
    expect(at('May 1 15:39')).toBe('2026-05-01 15:39:00');
  });

  it('takes short blobs and words for text, and says when a date cannot exist', () => {
    for (const blob of ['1', 'this', 'x', '2019', 'Entry subject', 'ashasd7zdskhz7asdkjasd', 'may I ask']) expect(at(blob)).toBeNull();
    expect(at('2022-02-30 07:15')).toBe('invalid');
    expect(at('2022-02-03 25:15')).toBe('invalid');
    expect(at('2022-02-03 13:15 PM')).toBe('invalid');
  });

  it('tells day-first from month-first by the file’s dates, then by the separator', () => {
    expect(dayOrder(['13/06/2013 10:00', '01/02/2013 10:00'])).toBe('dmy');
    expect(dayOrder(['06/13/2013 10:00', '01/02/2013 10:00'])).toBe('mdy');
    expect(dayOrder(['01/02/2013 10:00'])).toBe('mdy');
    expect(dayOrder(['01.02.2013 10:00'])).toBe('dmy');
  });
});
