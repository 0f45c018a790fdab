import { expect, test } from '@playwright/test';

test('a visitor reads the landing page and finds the way to sign up', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Jotline/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('The easiest way to keep a journal');
  await expect(page.locator('a[href^="sms:"]').first()).toBeVisible();

  // The FAQ keeps one answer open at a time.
  const questions = page.locator('#faq').getByRole('button');
  await questions.nth(0).click();
  await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'true');
  await questions.nth(1).click();
  await expect(questions.nth(1)).toHaveAttribute('aria-expanded', 'true');
  await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'false');

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
