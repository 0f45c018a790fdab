import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { setUpAuthenticatorApp } from './security-support';
import { signUpVerified } from './support';

// The e2e server's data directory (playwright.config.ts): the CLI works on the same database.
const port = Number(process.env.E2E_PORT ?? 3999);
const cliEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? `/tmp/jotline-e2e-${port}` };

// The journal number the journey's server publishes (JOURNAL_NUMBER's default).
const JOURNAL_NUMBER = '+15555550100';
const TEXT_IT = 'Text (555) 555-0100';

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Warnings and errors the page logs while it runs. */
function consoleProblems(page: Page) {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') seen.push(message.text());
  });
  return seen;
}

test('the empty journal, the account menu and settings show the journal number to text or save', async ({ page, request }) => {
  const account = await signUpVerified(page, request);
  const link = page.getByRole('link', { name: TEXT_IT });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', `sms:${JOURNAL_NUMBER}`);
  // Not the user's own number.
  await expect(page.getByRole('link', { name: new RegExp(account.phone.slice(2, 5)) })).toHaveCount(0);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save to contacts' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('jotline.vcf');
  const card = await readFile((await file.path())!, 'utf8');
  expect(card).toContain('FN:Jotline');
  expect(card).toContain(`TEL;TYPE=CELL,VOICE:${JOURNAL_NUMBER}`);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: TEXT_IT })).toHaveAttribute('href', `sms:${JOURNAL_NUMBER}`);
  await expect(page.getByRole('menuitem', { name: 'Save to contacts' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  const section = page.getByRole('region', { name: 'Your journal number' });
  await expect(section.getByRole('link', { name: TEXT_IT })).toHaveAttribute('href', `sms:${JOURNAL_NUMBER}`);
});

test('from the journal a few Tabs reach New entry, and n opens it', async ({ page, request }) => {
  await signUpVerified(page, request);
  await expect(page.getByRole('heading', { level: 1, name: 'Your journal' })).toBeVisible();
  const newEntry = page.getByRole('button', { name: 'New entry' });
  let reached = false;
  for (let tabs = 1; tabs <= 6 && !reached; tabs++) {
    await page.keyboard.press('Tab');
    reached = await newEntry.evaluate((button) => button === document.activeElement);
  }
  expect(reached).toBe(true);

  await page.keyboard.press('Escape');
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog', { name: 'New entry' });
  await expect(dialog).toBeVisible();
  // Typing n in the form is text, not the shortcut.
  await dialog.getByLabel('Your entry').pressSequentially('n');
  await expect(dialog.getByLabel('Your entry')).toHaveValue('n');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('nothing covers Create Your First Entry, the logo or an entry, and the first load logs no warnings', async ({ page, request }) => {
    await signUpVerified(page, request);
    const problems = consoleProblems(page);
    await page.reload();
    const create = page.getByRole('button', { name: 'Create Your First Entry' });
    await expect(create).toBeVisible();
    const newEntry = page.getByRole('button', { name: 'New entry' });
    expect(overlaps(await box(newEntry), await box(create))).toBe(false);

    await newEntry.click();
    const dialog = page.getByRole('dialog', { name: 'New entry' });
    await dialog.getByLabel('Your entry').fill('A long walk by the river, with herons standing in the shallows all morning.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Entry created' });
    await expect(toast).toBeVisible();
    // Once it has slid in, the toast sits below the header and its logo.
    const logo = await box(page.getByRole('banner').getByRole('link').first());
    await expect.poll(async () => overlaps(await box(toast), logo)).toBe(false);

    const entry = page.getByRole('article').first();
    await expect(entry).toContainText('herons');
    expect(overlaps(await box(newEntry), await box(entry))).toBe(false);
    expect(problems.filter((text) => /HydrateFallback/.test(text))).toEqual([]);
  });

  test('the admin header buttons sit in even rows', async ({ page, request }) => {
    const operator = await signUpVerified(page, request);
    execFileSync('node', ['bin/jotline.mjs', 'admin', 'grant', operator.email], { env: cliEnv });
    // Admin pages need a second factor: an authenticator app first.
    await page.goto('/admin/login');
    await setUpAuthenticatorApp(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const controls = [
      page.getByRole('link', { name: 'User Management' }),
      page.getByRole('link', { name: /^SMS Testing/ }),
      page.getByRole('button', { name: 'Refresh' }),
      page.getByRole('button', { name: 'Logout' }),
    ];
    await expect(controls[2]!).toBeVisible();
    const boxes = await Promise.all(controls.map(box));
    // Two a row, each as wide as the others.
    for (const b of boxes) expect(Math.abs(b.width - boxes[0]!.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(boxes[0]!.y - boxes[1]!.y)).toBeLessThanOrEqual(1);
    expect(Math.abs(boxes[2]!.y - boxes[3]!.y)).toBeLessThanOrEqual(1);
    expect(boxes[2]!.y).toBeGreaterThan(boxes[0]!.y);
  });
});
