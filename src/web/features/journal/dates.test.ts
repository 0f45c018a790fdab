import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatEntryDay, formatShortDay, localMoment, yearIn } from './dates';

const formatEntryTime = (iso: string, zone?: string) => localMoment(new Date(iso), zone)?.time ?? '';
import { formatCount } from './numbers';

const SEED = 20261124;

/** What the browser's own formatter says, which the journal's spelled-out dates must match. */
const intlDay = (y: number, m: number, d: number) =>
  new Date(Date.UTC(y, m - 1, d, 12)).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const pad = (n: number) => String(n).padStart(2, '0');

describe('journal dates', () => {
  it('spells a calendar day as en-US does, on every day of the years around a leap year', () => {
    for (let day = new Date(Date.UTC(2027, 0, 1)); day.getUTCFullYear() < 2029; day = new Date(day.getTime() + 86_400_000)) {
      const [y, m, d] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
      expect(formatEntryDay(`${y}-${pad(m)}-${pad(d)}`)).toBe(intlDay(y, m, d));
    }
    expect(formatEntryDay('2028-02-29')).toBe('Tuesday, February 29, 2028');
  });

  it('spells any day from year 1000 to 9999 as en-US does', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }), (date) => {
        const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
        expect(formatEntryDay(`${y}-${pad(m)}-${pad(d)}`)).toBe(intlDay(y, m, d));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('leaves a date it cannot read as it came', () => {
    expect(formatEntryDay('not a date')).toBe('not a date');
    expect(formatEntryDay('2026-00-10')).toBe('2026-00-10');
  });

  it('tells the time of day in the journal’s zone, and in the browser’s for a zone it does not know', () => {
    const instant = '2026-07-04T00:05:00Z';
    const options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', hour12: true };
    expect(formatEntryTime(instant, 'America/New_York')).toBe(new Date(instant).toLocaleTimeString('en-US', { ...options, timeZone: 'America/New_York' }));
    expect(formatEntryTime(instant, 'America/New_York')).toMatch(/^8:05\sPM$/);
    expect(formatEntryTime(instant, 'Asia/Kolkata')).toMatch(/^5:35\sAM$/);
    expect(formatEntryTime(instant, 'Mars/Olympus_Mons')).toBe(new Date(instant).toLocaleTimeString('en-US', options));
    expect(formatEntryTime(instant)).toBe(new Date(instant).toLocaleTimeString('en-US', options));
    expect(formatEntryTime('garbage', 'America/New_York')).toBe('');
  });

  it('reads an instant as the day and time it was in the journal’s zone', () => {
    const lateEvening = new Date('2026-03-05T04:30:00Z');
    expect(localMoment(lateEvening, 'America/Chicago')).toEqual({ date: '2026-03-04', time: '10:30 PM' });
    expect(localMoment(lateEvening, 'Asia/Tokyo')).toEqual({ date: '2026-03-05', time: '1:30 PM' });
    expect(localMoment(new Date('2026-01-01T00:00:00Z'), 'UTC')).toEqual({ date: '2026-01-01', time: '12:00 AM' });
    expect(localMoment(new Date('nope'), 'UTC')).toBeNull();
  });

  it('writes a short day, with its year only when it is another year', () => {
    expect(formatShortDay('2026-03-04', '2026-03-03')).toBe('Mar 4');
    expect(formatShortDay('2027-01-02', '2026-12-31')).toBe('Jan 2, 2027');
  });

  it('counts the year where the journal’s days are, across New Year', () => {
    const newYearsEveInLondon = new Date('2026-12-31T23:30:00Z');
    expect(yearIn('Europe/London', newYearsEveInLondon)).toBe(2026);
    expect(yearIn('Pacific/Kiritimati', newYearsEveInLondon)).toBe(2027);
    expect(yearIn('America/Los_Angeles', new Date('2027-01-01T07:59:00Z'))).toBe(2026);
  });
});

describe('journal counts', () => {
  it('groups thousands as en-US does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
      }),
      { seed: SEED, numRuns: 500 },
    );
    expect([0, 999, 1000, 10_000, 1_234_567].map(formatCount)).toEqual(['0', '999', '1,000', '10,000', '1,234,567']);
  });
});
