import { describe, expect, it } from 'vitest';
import { formatUsd, PLANS, YEARLY_PRICE_IF_MONTHLY_CENTS, YEARLY_SAVINGS_LABEL } from './plans';

describe('plans', () => {
  it('prices the plans as DESIGN section 10 says', () => {
    expect(formatUsd(PLANS.monthly.priceCents)).toBe('$5.99');
    expect(formatUsd(PLANS.yearly.priceCents)).toBe('$49.99');
    expect(formatUsd(YEARLY_PRICE_IF_MONTHLY_CENTS)).toBe('$71.88');
  });

  it('states the yearly savings the same way everywhere', () => {
    expect(YEARLY_SAVINGS_LABEL).toBe('Save $21.89 (30%)');
  });
});
