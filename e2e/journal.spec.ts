import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signUpVerified } from './support';

async function newEntry(page: Page, entry: { text: string; title?: string; tags?: string; photo?: Buffer }) {
  await page.getByRole('button', { name: 'New entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'New entry' });
  await dialog.getByLabel('Your entry').fill(entry.text);
  if (entry.title) await dialog.getByLabel(/^Title/).fill(entry.title);
  if (entry.tags) await dialog.getByLabel(/^Tags/).fill(entry.tags);
  if (entry.photo) {
    await dialog.locator('input[type=file]').setInputFiles({ name: 'sunrise.png', mimeType: 'image/png', buffer: entry.photo });
    await expect(dialog.getByRole('list', { name: 'Attached photos' }).getByRole('listitem')).toHaveCount(1);
  }
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Entry created').first()).toBeVisible();
}

async function exportAs(page: Page, format: string) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export your journal' });
  await dialog.getByText(format, { exact: true }).click();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  await expect(dialog).toBeHidden();
  return { name: file.suggestedFilename(), body: await readFile((await file.path())!) };
}

test('write with a photo, edit, search, filter, view the photo, export and delete', async ({ page, request }) => {
  const account = await signUpVerified(page, request);
  await expect(page.getByRole('button', { name: 'Create Your First Entry' })).toBeVisible();

  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#f59e0b' } }).png().toBuffer();
  await newEntry(page, { text: 'Walked the dog at sunrise. The river was   silver.', title: 'Morning walk', tags: 'outdoors, dog', photo });
  await newEntry(page, { text: 'Rainy afternoon with a good book.', tags: 'books' });

  const cards = page.locator('article');
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText('Rainy afternoon with a good book.');
  // Runs of spaces collapse, as the spec's whitespace rule says.
  await expect(cards.nth(1)).toContainText('The river was silver.');
  await expect(page.getByText('Current streak')).toBeVisible();

  // Edit the newest entry.
  await cards.first().getByRole('button', { name: /^Edit entry/ }).click();
  const editor = page.getByRole('form', { name: 'Edit entry' });
  await editor.getByRole('textbox').first().fill('Rainy afternoon with a very good book.');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Entry updated').first()).toBeVisible();
  await expect(cards.first()).toContainText('a very good book');

  // Search by words, then for something that is not there.
  const search = page.getByRole('searchbox', { name: 'Search entries' }).or(page.getByLabel('Search entries'));
  await search.fill('sunrise');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Walked the dog');
  await search.fill('zebra');
  await expect(page.getByText('No entries match your search')).toBeVisible();
  await search.fill('');
  await expect(cards).toHaveCount(2);

  // Filter to entries with photos.
  await page.getByRole('button', { name: 'Filters' }).click();
  // The filter lives in the address, so the box shows checked once the navigation lands.
  await page.getByLabel('Has photos').click();
  await expect(page.getByLabel('Has photos')).toBeChecked();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Morning walk');

  // Open the photo in the lightbox and close it with Escape.
  await cards.first().getByRole('button', { name: 'Open photo 1 of 1' }).click();
  const lightbox = page.getByRole('dialog');
  await expect(lightbox.getByRole('img')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(lightbox).toBeHidden();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(cards).toHaveCount(2);

  const txt = await exportAs(page, 'Plain text');
  expect(txt.name).toMatch(/^journal-export-\d{4}-\d{2}-\d{2}\.txt$/);
  expect(txt.body.toString('utf8')).toContain('Walked the dog at sunrise.');
  const pdf = await exportAs(page, 'PDF');
  expect(pdf.name).toMatch(/\.pdf$/);
  expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // Delete the photo entry, after the confirmation.
  await cards.nth(1).getByRole('button', { name: /^Delete entry/ }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you sure you want to delete this entry? This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Entry deleted').first()).toBeVisible();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('a very good book');

  // A text to the journal number lands in today's entry and shows up without a reload.
  const texted = await request.post('/api/dev/phone/send', { data: { from: account.phone, body: 'Texted from the bus: the lake is frozen.' } });
  expect(texted.ok()).toBeTruthy();
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText('Texted from the bus: the lake is frozen.');
  await expect(cards.first()).toContainText('SMS');
});

/** A day as the journal's headings spell it, `daysAgo` days before today in the browser's zone (the account's, from sign-up). */
const dayHeading = (page: Page, daysAgo: number) =>
  page.evaluate((n) => {
    const day = new Date();
    day.setDate(day.getDate() - n);
    return day.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
  }, daysAgo);

test('a text for yesterday sits on yesterday, under today, marked added later; long links and words wrap on a phone', async ({ page, request }) => {
  const account = await signUpVerified(page, request);
  const link = `https://docs.google.com/document/d/${'1AbC_dEf-GhI'.repeat(8)}/edit?usp=sharing`;
  const text = async (body: string) => expect((await request.post('/api/dev/phone/send', { data: { from: account.phone, body } })).ok()).toBeTruthy();
  await text(`Meeting notes are at ${link}.`);
  await text('YESTERDAY: Long walk by the river.');

  const cards = page.locator('article');
  await expect(cards).toHaveCount(2);
  const headings = cards.getByRole('heading', { level: 2 });
  await expect(headings).toHaveText([await dayHeading(page, 0), await dayHeading(page, 1)]);
  await expect(cards.nth(1)).toContainText('Long walk by the river.');
  await expect(cards.nth(1)).toContainText('Added later ·');
  await expect(cards.first()).not.toContainText('Added later');

  const anchor = cards.first().getByRole('link', { name: link });
  await expect(anchor).toHaveAttribute('href', link);
  await expect(anchor).toHaveAttribute('target', '_blank');
  await expect(anchor).toHaveAttribute('rel', 'noopener noreferrer nofollow');

  // A 5,000-character word, written on the web.
  await newEntry(page, { text: `Keys: ${'x'.repeat(5000)}` });
  await expect(cards).toHaveCount(3);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Show more' }).first().click();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The dialogs stay on screen, and a toast never lies over the next one.
  await newEntry(page, { text: 'From the phone.' });
  await page.getByRole('button', { name: 'New entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'New entry' });
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
