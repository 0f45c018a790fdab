import { describe, expect, it } from 'vitest';
import { isOnThisDay, matchingMonthDays, yearsAgo } from './days';

describe('which earlier days are “this day”', () => {
  it('is the same month and day in an earlier year', () => {
    expect(matchingMonthDays('2026-07-04')).toEqual(['07-04']);
    expect(isOnThisDay('2025-07-04', '2026-07-04')).toBe(true);
    expect(isOnThisDay('2026-07-04', '2026-07-04')).toBe(false);
    expect(isOnThisDay('2025-07-05', '2026-07-04')).toBe(false);
    expect(yearsAgo('2019-07-04', '2026-07-04')).toBe(7);
  });

  it('brings 29 February back on 28 February in common years, and on the 29th in leap years', () => {
    expect(matchingMonthDays('2027-02-28')).toEqual(['02-28', '02-29']);
    expect(isOnThisDay('2024-02-29', '2027-02-28')).toBe(true);
    expect(matchingMonthDays('2028-02-28')).toEqual(['02-28']);
    expect(isOnThisDay('2024-02-29', '2028-02-28')).toBe(false);
    expect(isOnThisDay('2024-02-29', '2028-02-29')).toBe(true);
    expect(isOnThisDay('2027-02-28', '2028-02-29')).toBe(false);
    // 2100 is not a leap year.
    expect(matchingMonthDays('2100-02-28')).toEqual(['02-28', '02-29']);
    expect(matchingMonthDays('2000-02-28')).toEqual(['02-28']);
  });
});
