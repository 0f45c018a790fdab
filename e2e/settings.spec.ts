import { expect, test } from '@playwright/test';
import { newAccount, signUpVerified } from './support';

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

test.describe('in a browser set to UTC', () => {
  test.use({ timezoneId: 'UTC' });

  test('the account’s one time zone: shown at sign-up, changed in Settings, used by the export', async ({ page, request }) => {
    const account = newAccount();
    await page.goto('/sign-up');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Mobile phone').fill(account.phone.slice(2));
    const zone = page.getByLabel('Time zone');
    // Prefilled from the browser, and the person can pick another.
    await expect(zone).toHaveValue('UTC');
    await zone.selectOption({ label: 'Pacific' });
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/phone-verification$/);
    expect((await request.post('/api/dev/phone/send', { data: { from: account.phone, body: 'YES' } })).ok()).toBeTruthy();
    await expect(page).toHaveURL(/\/journal$/, { timeout: 20_000 });

    await page.goto('/settings');
    const setting = page.getByLabel('Time zone');
    await expect(setting).toHaveValue('America/Los_Angeles');
    // The account's zone, not the reminder's: it stays open with the daily reminder off.
    await page.getByRole('switch', { name: 'Daily reminder' }).click();
    await expect(setting).toBeEnabled();
    await setting.selectOption('America/Chicago');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Profile updated').first()).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Time zone')).toHaveValue('America/Chicago');

    expect((await request.post('/api/dev/phone/send', { data: { from: account.phone, body: 'A quiet evening.' } })).ok()).toBeTruthy();
    const headers = { authorization: `Bearer ${await page.evaluate(() => JSON.parse(localStorage.getItem('jotline.session')!).access_token)}` };
    // The text is journaled by the inbound job a moment after it is received: until then there is nothing to export.
    await expect.poll(async () => (await request.get('/api/export?format=txt', { headers })).status(), { timeout: 15_000 }).toBe(200);
    const exported = await request.get('/api/export?format=txt', { headers });
    expect(await exported.text()).toContain('Times in America/Chicago');
  });
});
