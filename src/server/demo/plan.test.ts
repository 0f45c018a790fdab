import { describe, expect, it } from 'vitest';
import { countWords } from '../../shared/journal';
import { addDays } from '../journal/dates';
import { planDemoYear, type PlannedDay } from './plan';
import { seededRandom } from './random';

const DAYS = 365;
const SEED = 20_261_122;

/** What the demo journal promises, whatever day it is made on. */
function checkPlan(today: string, plan: PlannedDay[]) {
  const dates = plan.map((d) => d.date);
  expect(dates[0]).toBe(addDays(today, -(DAYS - 1)));
  expect(dates.at(-1)).toBe(today);
  expect(new Set(dates).size).toBe(dates.length);
  expect(plan.length).toBeGreaterThan(300);
  expect(plan.length).toBeLessThan(DAYS);
  for (let back = 0; back < 7; back++) expect(dates).toContain(addDays(today, -back)); // a streak to show
  expect(new Set(dates.map((d) => d.slice(0, 7))).size).toBeGreaterThanOrEqual(12);

  const web = plan.flatMap((d) => (d.source === 'web' ? [d] : []));
  const texted = plan.flatMap((d) => (d.source === 'sms' ? [d] : []));
  expect(texted.length).toBeGreaterThan(50);
  expect(web.length).toBeGreaterThan(150);
  expect(texted.some((d) => d.texts.length > 1)).toBe(true);
  expect(web.filter((d) => d.title).length).toBeGreaterThan(40);
  expect(new Set(web.flatMap((d) => d.tags)).size).toBeGreaterThanOrEqual(6);
  const contents = plan.map((d) => (d.source === 'web' ? d.content : d.texts.map((t) => t.body).join('\n\n')));
  expect(new Set(contents).size).toBeGreaterThan(plan.length * 0.8);
  const words = web.map((d) => countWords(d.content));
  expect(Math.min(...words)).toBeGreaterThanOrEqual(5);
  expect(Math.max(...words)).toBeGreaterThan(100);
  expect(web.filter((d) => d.photos.length > 0).length).toBeGreaterThan(15);
}

describe('the demo journal plan', () => {
  it('keeps its promises whichever day it is made on, over two years of days', { timeout: 60_000 }, () => {
    // Every start day of 2027 and 2028 (a leap year), each with the demo's own seed.
    for (let i = 0; i < 365 + 366; i++) {
      const today = addDays('2027-01-01', i);
      checkPlan(today, planDemoYear(today, DAYS, seededRandom(SEED)));
    }
  });

  it('reads the same every time it is made on the same day', () => {
    const a = planDemoYear('2026-11-23', DAYS, seededRandom(SEED));
    const b = planDemoYear('2026-11-23', DAYS, seededRandom(SEED));
    expect(a).toEqual(b);
  });
});
