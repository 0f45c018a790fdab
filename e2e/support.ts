import { expect, type APIRequestContext, type Page } from '@playwright/test';

let counter = 0;

/** A fresh account's details: unique email and US phone for this run. */
export function newAccount() {
  counter += 1;
  const stamp = `${Date.now() % 100_000}`.padStart(5, '0') + counter;
  return {
    email: `e2e-${stamp}@example.com`,
    // Exchanges 220–299: a real US number sign-up accepts (no N11, 555 or 976 exchange).
    phone: `+1646${2_200_000 + Math.floor(Math.random() * 800_000)}`,
    password: 'Journal123',
  };
}

/**
 * Signs up through the form, replies YES from the account's phone through the dev phone's API
 * (the same inbound pipeline a real text takes), and waits for the journal.
 */
export async function signUpVerified(page: Page, request: APIRequestContext, account = newAccount()) {
  await page.goto('/sign-up');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Mobile phone').fill(account.phone.slice(2));
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/phone-verification$/);
  const reply = await request.post('/api/dev/phone/send', { data: { from: account.phone, body: 'YES' } });
  expect(reply.ok()).toBeTruthy();
  await expect(page).toHaveURL(/\/journal$/, { timeout: 20_000 });
  return account;
}
