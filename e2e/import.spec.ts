import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { signUpVerified } from './support';

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const fixture = (name: string) => readFileSync(join(process.cwd(), 'src', 'server', 'test', 'fixtures', name), 'utf8');

/** The Brisbane trip as Day One exports it: Journal.json, photos/MD5.TYPE, a video and a recording. */
async function brisbaneExport(): Promise<Buffer> {
  const image = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } });
  const photos: Record<string, [Buffer, string]> = {
    // Noise does not compress: a photo big enough to watch the upload.
    MD5_SUNRISE: [await sharp(randomBytes(640 * 480 * 3), { raw: { width: 640, height: 480, channels: 3 } }).jpeg({ quality: 95 }).toBuffer(), 'jpeg'],
    MD5_KOALA: [await image(64, 48, '#78716c').png().toBuffer(), 'png'],
    MD5_LIBERTY: [await image(300, 200, '#14b8a6').jpeg().toBuffer(), 'jpeg'],
    MD5_HEIC: [Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic'), Buffer.alloc(512, 7)]), 'heic'],
  };
  let journal = fixture('dayone/brisbane-trip.json');
  const files: Record<string, Uint8Array> = {};
  for (const [placeholder, [bytes, type]] of Object.entries(photos)) {
    journal = journal.replace(placeholder, md5(bytes));
    files[`photos/${md5(bytes)}.${type}`] = new Uint8Array(bytes);
  }
  files['Journal.json'] = new TextEncoder().encode(journal);
  files['videos/6a1b2c3d4e5f60718293a4b5c6d7e8f9.mov'] = new Uint8Array(4096);
  files['audios/7b2c3d4e5f60718293a4b5c6d7e8f90a.m4a'] = new Uint8Array(2048);
  return Buffer.from(zipSync(files, { level: 0 }));
}

/** A jrnl journal of many days, long enough to watch the import move. */
function longJrnl(days: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(Date.UTC(1990, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    lines.push(`[${day} 21:00] Day ${i + 1}.`, 'Walked to the harbour and back; wrote this down so it is not forgotten.', '');
  }
  return Buffer.from(lines.join('\n'));
}

async function openImport(page: Page) {
  await page.goto('/settings');
  return page.getByRole('region', { name: 'Import' });
}

test('import a Day One ZIP from settings: the upload’s bar, then the summary in words, and each entry in its own time zone', async ({ page, request }) => {
  // Photos are decoded and re-encoded on the server: allow for a busy machine.
  test.setTimeout(120_000);
  await signUpVerified(page, request);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const card = page.getByRole('region', { name: 'Import' });
  await expect(card.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await card.getByLabel('Journal file').setInputFiles({ name: 'Brisbane.zip', mimeType: 'application/zip', buffer: await brisbaneExport() });

  // A slow connection, so the upload takes long enough to be seen.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  const upload = card.getByRole('progressbar', { name: 'Uploading' });
  await expect(upload).toBeVisible();
  // Part-way through: a share of the file, neither nothing nor all of it.
  await expect(upload).toHaveAttribute('aria-valuenow', /^[1-9][0-9]?$/);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  const summary = card.getByRole('status');
  await expect(summary).toContainText('Imported 5 of 5 entries', { timeout: 60_000 });
  await expect(summary).toContainText('3 photos added');
  await expect(summary).toContainText('1 photo named in the file is missing from the ZIP');
  await expect(summary).toContainText('1 photo is not a JPEG, PNG, GIF or WebP image');
  await expect(summary).toContainText('1 video was left out');
  await expect(summary).toContainText('1 voice recording is not audio we can play');

  await card.getByRole('link', { name: 'Open your journal' }).click();
  await expect(page).toHaveURL(/\/journal$/);
  // Dated and timed where it was written: 4 March, 5:34 AM in Brisbane, named as such.
  const dawn = page.getByRole('article').filter({ hasText: 'South Bank at dawn' });
  await expect(dawn.getByRole('heading', { level: 2 })).toHaveText('Monday, March 4, 2024');
  await expect(dawn).toContainText('5:34 AM');
  await expect(dawn).toContainText('Brisbane time');
  await expect(dawn.getByRole('list', { name: 'Photos' }).getByRole('img')).toHaveCount(1);
  await expect(page.getByRole('article').filter({ hasText: 'Lady Liberty, New York City, NY' })).toContainText('New York time');

  // The same file again adds nothing, and says why.
  const again = await openImport(page);
  await again.getByLabel('Journal file').setInputFiles({ name: 'Brisbane.zip', mimeType: 'application/zip', buffer: await brisbaneExport() });
  await again.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(again.getByRole('status')).toContainText('5 entries were already in your journal', { timeout: 60_000 });
});

test('a long import shows its progress bar moving, and the journal has every entry after', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signUpVerified(page, request);
  const card = await openImport(page);
  await card.getByLabel('Journal file').setInputFiles({ name: 'journal.txt', mimeType: 'text/plain', buffer: longJrnl(12_000) });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  const bar = card.getByRole('progressbar', { name: /^Importing entries: \d+ of 12000$/ });
  await expect(bar).toBeVisible({ timeout: 60_000 });
  await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9][0-9]?$/, { timeout: 60_000 });
  await expect(card.getByRole('status')).toContainText('Imported 12000 of 12000 entries', { timeout: 150_000 });
  await card.getByRole('link', { name: 'Open your journal' }).click();
  await expect(page.getByRole('article').filter({ hasText: 'Day 12000.' })).toBeVisible();
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

  const card = await openImport(page);
  await card.getByLabel('Journal file').setInputFiles({ name: 'journal.txt', mimeType: 'text/plain', buffer: Buffer.from(jrnl) });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(card.getByRole('status')).toContainText('Imported 2 of 2 entries');

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

test('a 19 MB file that is no journal is refused at once, and the next import goes ahead', async ({ page, request }) => {
  await signUpVerified(page, request);
  const card = await openImport(page);
  // A picture picked by mistake (within the 20 MB the page lets through): its first bytes say so,
  // and the rest need never be sent.
  const picture = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), randomBytes(19 * 1024 * 1024)]);
  await card.getByLabel('Journal file').setInputFiles({ name: 'holiday.png', mimeType: 'image/png', buffer: picture });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  // Before, the answer came only when the server's minute-long connection timeout cut the upload (66 s).
  await expect(card.getByRole('alert')).toContainText('This file is not a journal we can import.', { timeout: 10_000 });

  await card.getByLabel('Journal file').setInputFiles({ name: 'journal.txt', mimeType: 'text/plain', buffer: longJrnl(3) });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(card.getByRole('status')).toContainText('Imported 3 of 3 entries', { timeout: 30_000 });
});
