import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { signUpVerified } from './support';

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** A Day One ZIP export (Journal.json and photos/MD5.TYPE) with a photo big enough to watch the upload. */
async function dayOneExport(): Promise<Buffer> {
  const side = 640;
  const photo = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
  const heic = Buffer.from('a HEIC photo the journal cannot keep');
  const journal = readFileSync(join(process.cwd(), 'src', 'server', 'import', 'fixtures', 'dayone-journal.json'), 'utf8')
    .replace('PHOTO_MD5_FIRST', md5(photo))
    .replace('PHOTO_MD5_SECOND', md5(heic));
  return Buffer.from(
    zipSync({
      'Journal.json': new TextEncoder().encode(journal),
      [`photos/${md5(photo)}.jpeg`]: new Uint8Array(photo),
      [`photos/${md5(heic)}.heic`]: new Uint8Array(heic),
    }, { level: 0 }),
  );
}

test('import a Day One export from settings, watch it upload, and find the entries in the journal', async ({ page, request }) => {
  // Photos are decoded and re-encoded on the server: allow for a busy machine.
  test.setTimeout(120_000);
  await signUpVerified(page, request);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const card = page.getByRole('region', { name: 'Import' });
  await expect(card.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await card.getByLabel('Journal file').setInputFiles({ name: 'Day One export.zip', mimeType: 'application/zip', buffer: await dayOneExport() });

  // A slow connection, so the upload takes long enough to be seen.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(card.getByRole('progressbar')).toBeVisible();
  // Part-way through: a share of the file, neither nothing nor all of it.
  await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /^[1-9][0-9]?$/);
  await expect(card.getByRole('status')).toContainText('Imported 3 entries, skipped 0', { timeout: 60_000 });
  await expect(card.getByRole('status')).toContainText('1 photo was left out');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  await card.getByRole('link', { name: 'Open your journal' }).click();
  await expect(page).toHaveURL(/\/journal$/);
  const dinner = page.getByRole('article').filter({ hasText: "Dinner at Luca's" });
  await expect(dinner).toBeVisible();
  await expect(dinner).toContainText('The pasta was great!');
  await expect(dinner.getByRole('list', { name: 'Photos' }).getByRole('img')).toHaveCount(1);
  await expect(page.getByRole('article').filter({ hasText: 'Morning in Tokyo' })).toBeVisible();

  // The same file again adds nothing.
  await page.goto('/settings');
  await card.getByLabel('Journal file').setInputFiles({ name: 'Day One export.zip', mimeType: 'application/zip', buffer: await dayOneExport() });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(card.getByRole('status')).toContainText('Imported 0 entries, skipped 3');
});

test('entries imported from earlier years show up On This Day above the journal, each opening the entry', async ({ page, request }) => {
  await signUpVerified(page, request);
  // Today as the journal counts it (the account's time zone is the browser's).
  const today = await page.evaluate(() => new Intl.DateTimeFormat('en-CA').format(new Date()));
  const year = Number(today.slice(0, 4));
  const leapDay = today.endsWith('-02-29');
  const yearsBack = (n: number) => `${year - n}${today.slice(4)}`;
  const [recent, older] = leapDay ? [yearsBack(4), yearsBack(8)] : [yearsBack(1), yearsBack(3)];
  const jrnl = [`[${older} 08:30] Older memory. Snow on the roof.`, '', `[${recent} 19:45] A year back. Dinner with Ana on the porch.`, ''].join('\n');

  await page.goto('/settings');
  const card = page.getByRole('region', { name: 'Import' });
  await card.getByLabel('Journal file').setInputFiles({ name: 'journal.txt', mimeType: 'text/plain', buffer: Buffer.from(jrnl) });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(card.getByRole('status')).toContainText('Imported 2 entries, skipped 0');

  await card.getByRole('link', { name: 'Open your journal' }).click();
  const onThisDay = page.getByRole('region', { name: 'On this day' });
  await expect(onThisDay).toBeVisible();
  const items = onThisDay.getByRole('button');
  await expect(items).toHaveText([leapDay ? /4 years ago/ : /1 year ago/, leapDay ? /8 years ago/ : /3 years ago/]);
  await items.first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Dinner with Ana on the porch.');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(items.first()).toBeFocused();
});
