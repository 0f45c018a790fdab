import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { addVirtualAuthenticator, setUpAuthenticatorApp, totpCode } from './security-support';
import { signUpVerified } from './support';

// The e2e server's data directory (playwright.config.ts): the CLI works on the same database.
const port = Number(process.env.E2E_PORT ?? 3999);
const cliEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? `/tmp/jotline-e2e-${port}` };

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('a passkey is added in Settings, signs in after a sign-out, and is removed with the password', async ({ page, request }) => {
  const authenticator = await addVirtualAuthenticator(page);
  const account = await signUpVerified(page, request);

  await page.goto('/settings');
  await page.getByLabel('Passkey name').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const passkeys = page.getByRole('list', { name: 'Passkeys' });
  await expect(passkeys.getByRole('listitem', { name: 'Work laptop' })).toContainText('never used');
  expect(await authenticator.credentials()).toHaveLength(1);

  // The e-mail field offers the passkey (conditional mediation): choosing it signs in.
  await signOut(page);
  await page.goto('/sign-in');
  await expect(page).toHaveURL(/\/journal$/);

  // The button, while nobody answers the field's offer.
  await signOut(page);
  await authenticator.present(false);
  await page.goto('/sign-in');
  const button = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(button).toBeVisible();
  await authenticator.present(true);
  // The virtual authenticator may answer the field's pending offer with the touch that comes now,
  // before the press lands (it signs in just the same); otherwise the button signs in.
  await button.click({ timeout: 5_000 }).catch(() => undefined);
  await expect(page).toHaveURL(/\/journal$/);

  await page.goto('/settings');
  const row = passkeys.getByRole('listitem', { name: 'Work laptop' });
  await expect(row).toContainText('last used');
  await expect(page.getByRole('list', { name: 'Security log' })).toContainText('Signed in with a passkey');
  await row.getByRole('button', { name: 'Remove', exact: true }).click();
  await row.getByLabel('Password', { exact: true }).fill('not my password');
  await row.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(row.getByRole('alert')).toContainText('That password is not right.');
  await row.getByLabel('Password', { exact: true }).fill(account.password);
  await row.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
});

test('an admin without a second factor sets up an authenticator app, then signs in with a code and with a recovery code', async ({ page, request }) => {
  const admin = await signUpVerified(page, request);
  const granted = execFileSync('node', ['bin/jotline.mjs', 'admin', 'grant', admin.email], { env: cliEnv }).toString();
  expect(granted).toContain('a passkey or a second factor');

  await page.goto('/admin/login');
  const { secret, step, recoveryCodes } = await setUpAuthenticatorApp(page);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  const signInAsAdmin = async () => {
    await page.goto('/journal');
    await signOut(page);
    await page.goto('/admin/login');
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Two-step verification')).toBeVisible();
  };

  // With a recovery code (each works once).
  await signInAsAdmin();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  // With a code from the app (a later one than the code that turned it on: each code works once).
  await signInAsAdmin();
  const { code } = await totpCode(page, secret, step);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test('ending another session from Settings ends its live stream and signs it out', async ({ browser, page, request }) => {
  const account = await signUpVerified(page, request);
  const other = await (await browser.newContext()).newPage();
  // The server ends the stream; the page, told why, may close it first (then it counts as failed).
  const streamEnded = new Promise<void>((resolve) => {
    const ended = (r: { url(): string }) => {
      if (/\/api\/events\?ticket=/.test(r.url())) resolve();
    };
    other.on('requestfinished', ended);
    other.on('requestfailed', ended);
  });
  const streamOpened = other.waitForRequest(/\/api\/events\?ticket=/);
  await other.goto('/sign-in');
  await other.getByLabel('Email').fill(account.email);
  await other.getByLabel('Password', { exact: true }).fill(account.password);
  await other.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(other).toHaveURL(/\/journal$/);
  await streamOpened;

  await page.goto('/settings');
  const sessions = page.getByRole('list', { name: 'Where you are signed in' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
  await sessions.getByRole('listitem').filter({ hasNotText: 'This device' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);

  await streamEnded;
  await expect(other).toHaveURL(/\/sign-in/);
  await expect(page.getByRole('list', { name: 'Security log' })).toContainText('A session was signed out');
});
