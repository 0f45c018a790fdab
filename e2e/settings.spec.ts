import { expect, test } from '@playwright/test';
import { signUpVerified } from './support';

test('change reminder settings, keep them, and be asked before leaving with unsaved changes', async ({ page, request }) => {
  await signUpVerified(page, request);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  const save = page.getByRole('button', { name: 'Save', exact: true });
  await expect(save).toBeDisabled();
  await page.getByLabel('Hour').selectOption('7');
  await page.getByLabel('Minute').selectOption('30');
  await page.getByLabel('AM or PM').selectOption('AM');
  await page.getByLabel('Time zone').selectOption('America/Denver');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Profile updated').first()).toBeVisible();
  await expect(save).toBeDisabled();

  await page.reload();
  await expect(page.getByLabel('Hour')).toHaveValue('7');
  await expect(page.getByLabel('Minute')).toHaveValue('30');
  await expect(page.getByLabel('AM or PM')).toHaveValue('AM');
  await expect(page.getByLabel('Time zone')).toHaveValue('America/Denver');

  // An unsaved change holds the way out until the person decides.
  await page.getByLabel('Hour').selectOption('9');
  await page.getByRole('link', { name: 'Back to journal' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Save your settings?' });
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'No, do not save' }).click();
  await expect(page).toHaveURL(/\/journal$/);

  await page.goto('/settings');
  await expect(page.getByLabel('Hour')).toHaveValue('7');
});
