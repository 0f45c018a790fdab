import { expect, test } from '@playwright/test';
import { signUpVerified } from './support';

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Dec 5": the day the fresh 10-day trial ends, here (or the day before, should midnight fall since sign-up). */
function trialEndDays(): RegExp {
  const day = (at: number) => new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  const end = Date.now() + 10 * DAY_MS;
  return new RegExp(`^First charge on (${day(end)}|${day(end - DAY_MS)})`);
}

test('a trial user upgrades through checkout, keeping the trial: the first charge falls on its last day', async ({ page, request }) => {
  await signUpVerified(page, request);
  await expect(page.getByText('Free Trial Active')).toBeVisible();
  await page.getByRole('link', { name: 'Upgrade Now' }).or(page.getByRole('button', { name: 'Upgrade Now' })).first().click();
  await expect(page).toHaveURL(/\/subscribe$/);
  await expect(page.getByText('$49.99').first()).toBeVisible();
  await expect(page.getByText('Save $21.89 (30%)').first()).toBeVisible();
  const firstCharge = trialEndDays();
  await expect(page.getByText(firstCharge).first()).toBeVisible();

  // A canceled checkout changes nothing.
  await page.getByRole('button', { name: /Monthly/ }).click();
  await expect(page).toHaveURL(/\/dev\/checkout/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/journal$/);
  await expect(page.getByText('Checkout canceled').first()).toBeVisible();
  await expect(page.getByText('Free Trial Active')).toBeVisible();

  // Paying activates the subscription at once; the checkout too says nothing is charged before the trial ends.
  await page.goto('/subscribe');
  await page.getByRole('button', { name: /Yearly/ }).click();
  await expect(page).toHaveURL(/\/dev\/checkout/);
  await expect(page.getByText(firstCharge)).toBeVisible();
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/journal$/);
  await expect(page.getByText('Subscription activated!').first()).toBeVisible();
  await expect(page.getByText('Free Trial Active')).toBeHidden();

  await page.goto('/settings');
  await expect(page.getByText('Yearly').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Manage Billing' })).toBeVisible();
});

test('a subscriber is sent to Manage Billing instead of paying twice, and switches plan and cancels there', async ({ page, request }) => {
  await signUpVerified(page, request);
  await page.goto('/subscribe');
  await page.getByRole('button', { name: 'Choose Yearly' }).click();
  await expect(page).toHaveURL(/\/dev\/checkout/);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByText('Subscription activated!').first()).toBeVisible();

  // A second plan is refused: the page says so and points to Manage Billing.
  await page.goto('/subscribe');
  await expect(page.getByText('Your subscription is active. To switch plans, update your card or cancel, use Manage Billing.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Current plan' })).toBeDisabled();
  // No plan is offered to a subscriber (checkout would refuse it): Manage Billing is the way.
  await expect(page.getByRole('button', { name: 'Choose Monthly' })).toBeDisabled();
  await page.getByRole('button', { name: 'Manage Billing' }).click();

  // The simulator's billing portal: switch to monthly, then cancel at the period's end.
  await expect(page).toHaveURL(/\/dev\/billing-portal\?session=/);
  await expect(page.getByText('Jotline Yearly')).toBeVisible();
  await page.getByRole('button', { name: /^Switch to Monthly/ }).click();
  await expect(page.getByText('Plan switched: Monthly')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText('Your subscription will end at the close of the current billing period.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to settings' }).click();

  await expect(page).toHaveURL(/\/settings$/);
  const billing = page.getByRole('region', { name: 'Billing and subscription' });
  await expect(billing.getByText('Monthly')).toBeVisible();
  await expect(billing.getByText(/Your subscription is cancelled and ends on/)).toBeVisible();

  // Changed their mind: keep it, from settings again.
  await billing.getByRole('button', { name: 'Manage Billing' }).click();
  await expect(page).toHaveURL(/\/dev\/billing-portal\?session=/);
  await page.getByRole('button', { name: 'Keep my subscription' }).click();
  await expect(page.getByText('Your subscription will renew as usual.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to settings' }).click();
  await expect(billing.getByText(/Your current billing period ends on/)).toBeVisible();
  await expect(billing.getByText('Monthly')).toBeVisible();
});
