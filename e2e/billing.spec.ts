import { expect, test } from '@playwright/test';
import { signUpVerified } from './support';

test('a trial user upgrades through checkout and the trial banner gives way to the subscription', async ({ page, request }) => {
  await signUpVerified(page, request);
  await expect(page.getByText('Free Trial Active')).toBeVisible();
  await page.getByRole('link', { name: 'Upgrade Now' }).or(page.getByRole('button', { name: 'Upgrade Now' })).first().click();
  await expect(page).toHaveURL(/\/subscribe$/);
  await expect(page.getByText('$49.99').first()).toBeVisible();
  await expect(page.getByText('Save $21.89 (30%)').first()).toBeVisible();

  // A canceled checkout changes nothing.
  await page.getByRole('button', { name: /Monthly/ }).click();
  await expect(page).toHaveURL(/\/dev\/checkout/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/journal$/);
  await expect(page.getByText('Checkout canceled').first()).toBeVisible();
  await expect(page.getByText('Free Trial Active')).toBeVisible();

  // Paying activates the subscription at once.
  await page.goto('/subscribe');
  await page.getByRole('button', { name: /Yearly/ }).click();
  await expect(page).toHaveURL(/\/dev\/checkout/);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/journal$/);
  await expect(page.getByText('Subscription activated!').first()).toBeVisible();
  await expect(page.getByText('Free Trial Active')).toBeHidden();

  await page.goto('/settings');
  await expect(page.getByText('Yearly').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Manage Billing' })).toBeVisible();
});
