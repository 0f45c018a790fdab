import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { createLocalBilling, LOCAL_PRICES } from './local';
import { createStripeBilling } from './stripe';
import type { BillingProvider } from './types';

export type { BillingProvider } from './types';

/** The provider BILLING_PROVIDER names. */
export function createBillingProvider(config: Config, clock: Clock): BillingProvider {
  return config.billing.provider === 'stripe' ? createStripeBilling(config.billing, clock) : createLocalBilling(config.publicUrl, clock);
}

/** The provider price of each plan. */
export function planPrices(config: Config): { monthly: string; yearly: string } {
  return config.billing.provider === 'stripe'
    ? { monthly: config.billing.priceMonthly, yearly: config.billing.priceYearly }
    : { ...LOCAL_PRICES };
}
