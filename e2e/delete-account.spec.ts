import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { signUpVerified } from './support';

test('export first, then delete my account: signed out, home with a toast, and the account gone', async ({ page, request }) => {
  const account = await signUpVerified(page, request);

  // Something to lose: an entry with a photo.
  await page.getByRole('button', { name: 'New entry' }).click();
  const editor = page.getByRole('dialog', { name: 'New entry' });
  await editor.getByLabel('Your entry').fill('A day worth keeping a copy of');
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#0ea5e9' } }).png().toBuffer();
  await editor.locator('input[type=file]').setInputFiles({ name: 'lake.png', mimeType: 'image/png', buffer: photo });
  await expect(editor.getByRole('list', { name: 'Attached photos' }).getByRole('listitem')).toHaveCount(1);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Entry created').first()).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  const danger = page.getByRole('region', { name: 'Delete my account' });
  await expect(danger).toBeVisible();

  // Export first: a PDF with the photo, made in the server's PDF worker.
  await danger.getByRole('button', { name: 'Export my journal' }).click();
  const exporter = page.getByRole('dialog', { name: 'Export your journal' });
  await exporter.getByText('PDF', { exact: true }).click();
  const download = page.waitForEvent('download');
  await exporter.getByRole('button', { name: 'Export' }).click();
  const pdf = await readFile((await (await download).path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(exporter).toBeHidden();

  // The dialog deletes only on DELETE typed exactly; the keyboard is enough.
  await danger.getByRole('button', { name: 'Delete my account…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete your account?' });
  const field = confirm.getByLabel('Type DELETE to confirm');
  await expect(field).toBeFocused();
  const deleteButton = confirm.getByRole('button', { name: 'Delete my account' });
  await expect(deleteButton).toBeDisabled();
  await field.fill('delete');
  await expect(deleteButton).toBeDisabled();
  await field.fill('DELETE');
  await expect(deleteButton).toBeEnabled();
  await field.press('Enter');

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Account deleted')).toBeVisible();

  // Signed out everywhere: the journal asks to sign in, and the old password no longer works.
  await page.goto('/journal');
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Invalid email or password').first()).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
});
