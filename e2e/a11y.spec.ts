import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { setUpAuthenticatorApp } from './security-support';
import { newAccount, signUpVerified } from './support';

// The e2e server's data directory (playwright.config.ts): the CLI grants admin on the same database.
const port = Number(process.env.E2E_PORT ?? 3999);
const cliEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? `/tmp/jotline-e2e-${port}` };

const settled = (page: Page) =>
  // Endless animations, such as a spinner, never finish and are not waited for.
  page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
  );

async function expectNoSeriousViolation(axe: AxeBuilder, what: string) {
  const results = await axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(serious, `accessibility of ${what}`).toEqual([]);
}

/**
 * axe-core on what is on screen now: no serious or critical WCAG 2.1 A/AA violation. Colours are
 * judged once animations settle. Toasts come and go on their own clock (one may start fading out
 * while axe reads the page), so they are left out here and checked by expectToastAccessible.
 */
async function expectAccessible(page: Page, what: string) {
  await settled(page);
  await expectNoSeriousViolation(new AxeBuilder({ page }).exclude('[data-sonner-toaster]'), what);
}

/** A toast fully shown (not fading in or out) passes axe, colours included. */
async function expectToastAccessible(page: Page, text: string) {
  const toast = page.locator('[data-sonner-toast]', { hasText: text });
  await expect(toast).toBeVisible();
  await toast.hover(); // sonner keeps a hovered toast open
  await settled(page);
  await expectNoSeriousViolation(new AxeBuilder({ page }).include('[data-sonner-toaster]'), `the "${text}" toast`);
}

/** Tab this many times: focus must stay inside the open dialog. */
async function expectFocusTrapped(page: Page, dialogName: string | RegExp, presses = 12) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  for (let i = 0; i < presses; i += 1) {
    await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
    expect(await dialog.evaluate((node) => node.contains(document.activeElement)), `focus left the dialog after ${i + 1} presses`).toBe(true);
  }
}

test('public pages have no serious accessibility problem', async ({ page }) => {
  for (const path of ['/', '/privacy', '/terms', '/support', '/sign-in', '/sign-up', '/reset-password', '/admin/login', '/no-such-page']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    await expectAccessible(page, path);
  }
  // The FAQ's answers, open.
  await page.goto('/');
  await page.locator('#faq summary').first().click();
  await expectAccessible(page, 'the landing page with an FAQ answer open');
});

test('the signed-in pages and every dialog pass axe and work from the keyboard', async ({ page, request }) => {
  await signUpVerified(page, request);
  await expectAccessible(page, 'the empty journal');

  // New entry, opened from the keyboard: focus stays inside and returns to the button on Escape.
  const newEntry = page.getByRole('button', { name: 'New entry' });
  await newEntry.focus();
  await page.keyboard.press('Enter');
  const editor = page.getByRole('dialog', { name: 'New entry' });
  await expect(editor).toBeVisible();
  await expectAccessible(page, 'the New entry dialog');
  await expectFocusTrapped(page, 'New entry');
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(newEntry).toBeFocused();

  // An entry with a photo, so the card, its menu, the lightbox and the delete dialog exist.
  await newEntry.click();
  await editor.getByLabel('Your entry').fill('A quiet morning by the lake.');
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#0ea5e9' } }).png().toBuffer();
  await editor.locator('input[type=file]').setInputFiles({ name: 'lake.png', mimeType: 'image/png', buffer: photo });
  await expect(editor.getByRole('list', { name: 'Attached photos' }).getByRole('listitem')).toHaveCount(1);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  await expect(page.locator('article')).toHaveCount(1);
  await expectToastAccessible(page, 'Entry created');
  await expectAccessible(page, 'the journal with an entry');

  // The lightbox, from the keyboard.
  const openPhoto = page.getByRole('button', { name: /^Open photo 1 of 1/ });
  await openPhoto.focus();
  await page.keyboard.press('Enter');
  const lightbox = page.getByRole('dialog');
  await expect(lightbox.getByRole('img')).toBeVisible();
  await expectAccessible(page, 'the photo lightbox');
  await page.keyboard.press('Escape');
  await expect(lightbox).toBeHidden();
  await expect(openPhoto).toBeFocused();

  // The delete confirmation.
  const deleteButton = page.locator('article').getByRole('button', { name: /^Delete entry/ });
  await deleteButton.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toBeVisible();
  await expectAccessible(page, 'the delete confirmation');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(deleteButton).toBeFocused();

  // The account menu, from the keyboard: arrows move, Escape closes and gives focus back.
  const menuButton = page.getByRole('button', { name: 'Account menu' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await page.keyboard.press('ArrowDown');
  expect(await menu.evaluate((node) => node.contains(document.activeElement))).toBe(true);
  await expectAccessible(page, 'the account menu');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();

  // Export, from the menu.
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Export' }).click();
  await expect(page.getByRole('dialog', { name: 'Export your journal' })).toBeVisible();
  await expectAccessible(page, 'the export dialog');
  await expectFocusTrapped(page, 'Export your journal');
  await page.keyboard.press('Escape');

  // Settings and its account-deletion dialog.
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.locator('h1').first()).toBeVisible();
  await expectAccessible(page, 'settings');
  const deleteAccount = page.getByRole('button', { name: 'Delete my account…' });
  if (await deleteAccount.count()) {
    await deleteAccount.click();
    await expect(page.getByRole('dialog', { name: 'Delete your account?' })).toBeVisible();
    await expectAccessible(page, 'the delete-account dialog');
    await page.keyboard.press('Escape');
  }

  for (const path of ['/subscribe']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    await expectAccessible(page, path);
  }
});

test('phone verification works from the keyboard and passes axe', async ({ page }) => {
  await page.goto('/sign-up');
  const stamp = `${Date.now() % 1_000_000}`;
  await page.getByLabel('Email').fill(`a11y-${stamp}@example.com`);
  await page.getByLabel('Mobile phone').fill(`646${2_200_000 + Math.floor(Math.random() * 800_000)}`);
  await page.getByLabel('Password', { exact: true }).fill('Journal123');
  // Consent by keyboard: Space on the focused checkbox, Enter on the button.
  await page.getByRole('checkbox').focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Create Account' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/phone-verification$/);
  await expect(page.getByRole('heading', { name: 'Check your phone!' })).toBeVisible();
  await expectAccessible(page, 'phone verification');
  // Every control on the page is reachable with Tab.
  const controls = await page.locator('main a[href], main button:not([disabled])').count();
  const reached = new Set<string>();
  for (let i = 0; i < controls + 10; i += 1) {
    await page.keyboard.press('Tab');
    reached.add(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
  }
  const names = await page.locator('main a[href], main button:not([disabled])').allTextContents();
  for (const name of names.map((n) => n.trim()).filter(Boolean)) expect([...reached], `${name} is reachable by keyboard`).toContain(name);
});

test('the admin pages and the delete-user dialog pass axe', async ({ page, request }) => {
  const operator = await signUpVerified(page, request, newAccount());
  execFileSync('node', ['bin/jotline.mjs', 'admin', 'grant', operator.email], { env: cliEnv });
  // Admin pages need a second factor: an authenticator app first.
  await page.goto('/admin/login');
  await setUpAuthenticatorApp(page);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  for (const path of ['/admin/dashboard', '/admin/dashboard/subscribers', '/admin/dashboard/trial-users', '/admin/sms-testing', '/admin/user-management']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, path);
  }
  await page.getByLabel('User ID, email or phone number').fill(operator.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: 'Delete User' }).click();
  await expect(page.getByRole('dialog', { name: 'Delete this user?' })).toBeVisible();
  await expectAccessible(page, 'the delete-user dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Delete User' })).toBeFocused();
});
