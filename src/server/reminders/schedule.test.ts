import { SegmentedMessage } from 'sms-segments-calculator';
import { describe, expect, it } from 'vitest';
import { addDays } from '../journal/dates';
import { smsTexts } from '../sms/texts';
import { JOURNAL_PROMPTS, promptForDay } from './prompts';
import { nextDailyAt, nextWeeklyAt, zonedInstant } from './schedule';

const iso = (d: Date) => d.toISOString();

describe('local wall times', () => {
  it('names the instant of a local time in winter and in summer', () => {
    expect(iso(zonedInstant('2026-01-15', '20:00', 'America/New_York'))).toBe('2026-01-16T01:00:00.000Z');
    expect(iso(zonedInstant('2026-07-15', '20:00', 'America/New_York'))).toBe('2026-07-16T00:00:00.000Z');
    expect(iso(zonedInstant('2026-07-15', '20:00', 'America/Phoenix'))).toBe('2026-07-16T03:00:00.000Z');
    expect(iso(zonedInstant('2026-07-15', '08:45', 'Pacific/Honolulu'))).toBe('2026-07-15T18:45:00.000Z');
  });

  it('is right on the days the clocks change', () => {
    // Spring forward (2026-03-08, 02:00 -> 03:00): the evening is already on daylight time.
    expect(iso(zonedInstant('2026-03-08', '20:00', 'America/New_York'))).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(zonedInstant('2026-03-08', '01:45', 'America/New_York'))).toBe('2026-03-08T06:45:00.000Z');
    // A time that does not exist that night moves on by the gap: 02:30 is 03:30 daylight time.
    expect(iso(zonedInstant('2026-03-08', '02:30', 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    // Fall back (2026-11-01, 02:00 -> 01:00): a time that happens twice is its first occurrence.
    expect(iso(zonedInstant('2026-11-01', '01:30', 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(zonedInstant('2026-11-01', '20:00', 'America/New_York'))).toBe('2026-11-02T01:00:00.000Z');
  });

  it('finds the next daily time at or after an instant, across a DST change', () => {
    const zone = 'America/New_York';
    expect(iso(nextDailyAt(new Date('2026-03-07T12:00:00Z'), '20:00', zone))).toBe('2026-03-08T01:00:00.000Z');
    expect(iso(nextDailyAt(new Date('2026-03-08T01:00:00Z'), '20:00', zone))).toBe('2026-03-08T01:00:00.000Z');
    expect(iso(nextDailyAt(new Date('2026-03-08T01:00:00.001Z'), '20:00', zone))).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(nextDailyAt(new Date('2026-11-01T00:00:00.001Z'), '20:00', zone))).toBe('2026-11-02T01:00:00.000Z');
    // Late in the UTC day but still the local evening before.
    expect(iso(nextDailyAt(new Date('2026-11-19T04:30:00Z'), '21:00', 'America/Los_Angeles'))).toBe('2026-11-19T05:00:00.000Z');
  });

  it('finds the next Sunday 18:00', () => {
    const zone = 'America/Chicago';
    expect(iso(nextWeeklyAt(new Date('2026-11-18T12:00:00Z'), 0, '18:00', zone))).toBe('2026-11-23T00:00:00.000Z');
    expect(iso(nextWeeklyAt(new Date('2026-11-23T00:00:00.001Z'), 0, '18:00', zone))).toBe('2026-11-30T00:00:00.000Z');
    // The Sunday the clocks spring forward.
    expect(iso(nextWeeklyAt(new Date('2026-03-05T00:00:00Z'), 0, '18:00', 'America/New_York'))).toBe('2026-03-08T22:00:00.000Z');
  });

  it('gives the same answer when asked again, whatever the caller did with the first', () => {
    const from = new Date('2026-03-07T12:00:00Z');
    const first = nextDailyAt(from, '20:00', 'America/New_York');
    first.setTime(0);
    expect(iso(nextDailyAt(from, '20:00', 'America/New_York'))).toBe('2026-03-08T01:00:00.000Z');
    // The same question in another zone, or at another time, is another answer.
    expect(iso(nextDailyAt(from, '20:00', 'Europe/London'))).toBe('2026-03-07T20:00:00.000Z');
    expect(iso(nextDailyAt(from, '21:00', 'America/New_York'))).toBe('2026-03-08T02:00:00.000Z');
    const sunday = nextWeeklyAt(from, 0, '18:00', 'America/New_York');
    sunday.setTime(0);
    expect(iso(nextWeeklyAt(from, 0, '18:00', 'America/New_York'))).toBe('2026-03-08T22:00:00.000Z');
  });
});

describe('reminder texts', () => {
  it('rotates prompts by day with no repeat within a month', () => {
    const month = Array.from({ length: 31 }, (_, i) => promptForDay(addDays('2026-12-01', i)));
    expect(new Set(month).size).toBe(31);
    expect(promptForDay('2026-12-01')).toBe(promptForDay(addDays('2026-12-01', JOURNAL_PROMPTS.length)));
  });

  it('keeps every automated text to one plain SMS segment, branded, with the STOP line', () => {
    const texts = [
      ...JOURNAL_PROMPTS.map((p) => smsTexts.dailyPrompt(p)),
      smsTexts.dailyReminder(),
      smsTexts.missedDayNudge(),
      smsTexts.weeklyRecap({ entries: 0, days: 0, words: 0, streak: 0 }),
      smsTexts.weeklyRecap({ entries: 1, days: 1, words: 1, streak: 1 }),
      smsTexts.weeklyRecap({ entries: 14, days: 7, words: 123_456, streak: 1_234 }),
    ];
    for (const text of texts) {
      const segmented = new SegmentedMessage(text);
      expect(segmented.encodingName, text).toBe('GSM-7');
      expect(segmented.segmentsCount, text).toBe(1);
      expect(text).toMatch(/^Jotline\b/);
      expect(text).toMatch(/Reply STOP to opt out\.$/);
    }
  });
});
