import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { setUpAuthenticatorApp } from './security-support';
import { newAccount, signUpVerified } from './support';

// The e2e server's data directory (playwright.config.ts): the CLI works on the same database.
const port = Number(process.env.E2E_PORT ?? 3999);
const cliEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? `/tmp/jotline-e2e-${port}` };

test('an operator signs in to the admin area, reads the dashboard and deletes an account', async ({ browser, request }) => {
  const memberPage = await (await browser.newContext()).newPage();
  const member = await signUpVerified(memberPage, request);
  const operatorPage = await (await browser.newContext()).newPage();
  const operator = await signUpVerified(operatorPage, request, newAccount());
  execFileSync('node', ['bin/jotline.mjs', 'admin', 'grant', operator.email], { env: cliEnv });

  // A member without admin rights is turned away.
  await memberPage.goto('/admin/login');
  await memberPage.getByLabel('Email').fill(member.email);
  await memberPage.getByLabel('Password', { exact: true }).fill(member.password);
  await memberPage.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(memberPage.getByText('Access Denied').first()).toBeVisible();

  // Admin pages need a second factor: the operator sets up an authenticator app first.
  const page = operatorPage;
  await page.goto('/admin/login');
  await setUpAuthenticatorApp(page);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText('Paid Subscribers').first()).toBeVisible();
  await expect(page.getByText('Trial Users').first()).toBeVisible();
  await expect(page.getByText(operator.email).first()).toBeVisible();

  // SMS tests are dry runs: every step against the member's phone, and nothing reaches their journal.
  await page.goto('/admin/sms-testing');
  await page.getByLabel('Test Phone Number').fill(member.phone);
  await page.getByRole('button', { name: 'Test short message' }).click();
  await expect(page.getByText('Comprehensive Test Complete').first()).toBeVisible();
  await expect(page.getByText('6/6 steps passed, entry would be created (dry run)').first()).toBeVisible();
  await page.getByRole('button', { name: 'Test oversized message' }).click();
  // Refused, as a real oversized text is, and its sender asked to split it.
  await expect(page.getByText(/^Refused: 15,000 characters/).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Test Results' }).click();
  const results = page.getByRole('list', { name: 'Test results' });
  await expect(results.getByRole('listitem')).toHaveCount(2);
  // The member (signed out by the admin login's refusal) signs in again: their journal is still empty.
  await memberPage.goto('/sign-in');
  await memberPage.getByLabel('Email').fill(member.email);
  await memberPage.getByLabel('Password', { exact: true }).fill(member.password);
  await memberPage.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(memberPage).toHaveURL(/\/journal$/);
  await expect(memberPage.getByRole('button', { name: 'Create Your First Entry' })).toBeVisible();

  await page.goto('/admin/user-management');
  await page.getByLabel('User ID, email or phone number').fill(member.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(member.email).first()).toBeVisible();
  // Phones are masked to their last four digits.
  await expect(page.getByText(member.phone)).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this user?' });
  const confirm = dialog.getByRole('button', { name: 'Delete permanently' });
  await dialog.getByLabel('Type DELETE to confirm').fill('delete');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await confirm.click();
  await expect(page.getByText('User deleted successfully').first()).toBeVisible();
  await expect(page.getByText('Last Deletion Summary')).toBeVisible();

  // The deleted member's session no longer works.
  await memberPage.goto('/journal');
  await expect(memberPage).toHaveURL(/\/sign-in/);
});
