import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BarChart, LineChart } from './Charts';

const points = [
  { date: '2026-03-01', signups: 1, entries: 1 },
  { date: '2026-03-02', signups: 3, entries: 12 },
];
const titles = (container: HTMLElement) => [...container.querySelectorAll('title')].map((t) => t.textContent);

describe('growth charts', () => {
  it('name one of a kind in the singular in their tooltips', () => {
    const entries = render(<BarChart points={points} label="Entries" />);
    expect(titles(entries.container)).toEqual([expect.stringMatching(/: 1 entry$/), expect.stringMatching(/: 12 entries$/)]);
    const signups = render(<LineChart points={points} label="Sign-ups" />);
    expect(titles(signups.container)).toEqual([expect.stringMatching(/: 1 sign-up$/), expect.stringMatching(/: 3 sign-ups$/)]);
  });
});
