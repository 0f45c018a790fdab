import { describe, expect, it } from 'vitest';
import { isValidTimeZone, localDate, zonedInstant } from './zones';

const at = (day: string, time: string, zone: string) => zonedInstant(day, time, zone).toISOString();

describe('days and wall-clock times in a zone (any machine zone: the results name instants)', () => {
  it('names the instant of a wall time, the first of a time that happens twice, and moves one that never happens on by the gap', () => {
    expect(at('2026-07-15', '20:00', 'America/New_York')).toBe('2026-07-16T00:00:00.000Z');
    // London springs forward at 01:00 GMT on March 29th: 01:30 is 02:30 BST.
    expect(at('2026-03-29', '01:30', 'Europe/London')).toBe('2026-03-29T01:30:00.000Z');
    // And falls back on October 25th: 01:30 happens in BST first.
    expect(at('2026-10-25', '01:30', 'Europe/London')).toBe('2026-10-25T00:30:00.000Z');
    // Lord Howe moves its clocks by half an hour.
    expect(at('2026-10-04', '02:15', 'Australia/Lord_Howe')).toBe('2026-10-03T15:45:00.000Z');
    // Samoa skipped December 30th, 2011 whole: noon that day is noon the next.
    expect(at('2011-12-30', '12:00', 'Pacific/Apia')).toBe('2011-12-30T22:00:00.000Z');
    expect(at('2028-02-29', '23:59', 'Pacific/Kiritimati')).toBe('2028-02-29T09:59:00.000Z');
  });

  it('gives the day an instant falls on, in the zone asked for, or UTC for one it does not know', () => {
    const instant = new Date('2028-02-29T04:30:00Z');
    expect(localDate(instant, 'Pacific/Kiritimati')).toBe('2028-02-29');
    expect(localDate(instant, 'Pacific/Honolulu')).toBe('2028-02-28');
    expect(localDate(instant, 'Not/AZone')).toBe('2028-02-29');
    expect(localDate(instant, null)).toBe('2028-02-29');
    expect(localDate(new Date('0999-01-01T00:00:00Z'), 'UTC')).toBe('0999-01-01');
  });

  it('knows which zone names are real', () => {
    expect(isValidTimeZone('America/Chicago')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('America/Gotham')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});
