import { expect, test } from '@playwright/test';

test('a visitor reads the landing page and finds the way to sign up', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Jotline/);
});
