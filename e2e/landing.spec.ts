import { expect, test } from '@playwright/test';

test('a visitor reads the landing page and finds the way to sign up', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Jotline/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('The easiest way to keep a journal');
  await expect(page.locator('a[href^="sms:"]').first()).toBeVisible();

  // The FAQ keeps one answer open at a time, by mouse and by keyboard.
  const answers = page.locator('#faq details');
  await answers.nth(0).locator('summary').click();
  await expect(answers.nth(0)).toHaveAttribute('open', '');
  await answers.nth(1).locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(answers.nth(1)).toHaveAttribute('open', '');
  await expect(answers.nth(0)).not.toHaveAttribute('open', '');

  await page.getByRole('link', { name: 'Start journaling for free' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
});

test('an unknown address shows the 404 page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await page.getByRole('link', { name: /home/i }).click();
  await expect(page).toHaveURL(/\/$/);
});
