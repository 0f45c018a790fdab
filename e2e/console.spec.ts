import { expect, test, type Page } from '@playwright/test';
import { signUpVerified } from './support';

// A page that logs errors to the browser's console is one whose failures nobody sees (Lighthouse's
// best practices count them too): sign-up and the journal, the pages everyone opens, log none.
// The browser logs a request answered 4xx or 5xx there too.

/** Every error the page logs to its console, and every uncaught exception. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

test('sign-up and the journal log no errors to the console', async ({ page, request }) => {
  const errors = watchErrors(page);
  await page.goto('/sign-up');
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  expect(errors).toEqual([]);

  await signUpVerified(page, request);
  await expect(page.getByRole('button', { name: 'Create Your First Entry' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Create Your First Entry' })).toBeVisible();
  expect(errors).toEqual([]);
});
