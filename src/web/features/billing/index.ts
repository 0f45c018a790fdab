/**
 * Billing in the web app: the plan choice that starts checkout, and the trial-expired screen.
 * Show <TrialExpiredPanel /> wherever a guarded page learns (402) that access has lapsed.
 */
export { checkoutBrowser, checkoutErrorMessage, useStartCheckout } from './checkout';
export { PlanOptions } from './PlanOptions';
export { TrialExpiredPanel } from './TrialExpiredPanel';
export { ManageBillingNotice } from './ManageBillingNotice';
export { portalBrowser, useBillingPortal } from './portal';
