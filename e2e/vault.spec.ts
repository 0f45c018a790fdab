import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import { blankGlyphs, pageLines } from '../src/shared/test/pdf';
import sharp from 'sharp';
import { vaultMessages } from '../src/shared/vault-messages';
import { signUpVerified } from './support';
import { turnOnVault, vaultCard } from './vault-support';

// The Vault, whole: turned on with a journal already written, a text sealed as it arrives, the
// journal unlocked, searched, edited, given a photo and exported in the browser (a PDF too),
// locked, opened after a sign-in by texted link with the recovery code, the passphrase changed,
// and the vault turned off again.

const card = vaultMessages.card;
const journal = vaultMessages.journal;
const PASSPHRASE = 'marsh heron listens at dawn 42';
const NEW_PASSPHRASE = 'quiet harbour lanterns in november 7';

test.setTimeout(240_000);

async function openDevPhone(page: Page, phone: string) {
  await page.goto('/dev/phone');
  await page.getByLabel("This phone's number (US)").fill(phone.slice(2));
  await page.getByRole('button', { name: 'Use number' }).click();
  return page.getByRole('log', { name: 'Conversation' });
}

async function text(handset: Page, body: string) {
  await handset.getByLabel('Message to the journal number').fill(body);
  await handset.getByRole('button', { name: 'Send text' }).click();
}

async function exportAs(page: Page, format: string, withPhotos = false) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export your journal' });
  await dialog.getByText(format, { exact: true }).click();
  if (withPhotos) await dialog.getByRole('switch', { name: 'Include photos' }).click();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  await expect(dialog).toBeHidden();
  return { name: file.suggestedFilename(), body: await readFile((await file.path())!) };
}

async function unlock(page: Page, secret: string, withCode = false) {
  await expect(page.getByRole('heading', { name: journal.lockedTitle })).toBeVisible({ timeout: 20_000 });
  if (withCode) await page.getByRole('button', { name: card.useCode }).click();
  await page.getByLabel(withCode ? card.codeLabel : card.passphraseLabel).fill(secret);
  await page.getByRole('button', { name: card.unlock }).click();
}

const cards = (page: Page) => page.getByRole('article');

/** To Settings within the app, so the keys in this tab's memory stay. */
async function toSettings(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
}

test('turn the vault on, text, unlock, search, edit, export, lock, sign in by link, recover, change the passphrase, turn it off', async ({ page, request, browser }) => {
  const account = await signUpVerified(page, request);
  // A journal written before the vault: a text, for yesterday (today's texts share one entry).
  expect((await request.post('/api/dev/phone/send', { data: { from: account.phone, body: 'YESTERDAY: Heron at the marsh before the vault' } })).ok()).toBeTruthy();
  await expect(cards(page).filter({ hasText: 'Heron at the marsh' })).toBeVisible({ timeout: 20_000 });

  // Settings → Vault: the warning, a passphrase typed twice, the recovery code kept and confirmed.
  await page.goto('/settings');
  const code = await turnOnVault(page, PASSPHRASE);
  expect(code).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);

  // A text from the phone is sealed as it arrives.
  const handset = await (await browser.newContext()).newPage();
  await openDevPhone(handset, account.phone);
  await text(handset, 'Zebra crossing by the sea');

  // A new tab of the journal asks for the passphrase once, then opens everything here.
  await page.goto('/journal');
  await unlock(page, PASSPHRASE);
  await expect(cards(page).filter({ hasText: 'Zebra crossing by the sea' })).toBeVisible({ timeout: 20_000 });
  await expect(cards(page).filter({ hasText: 'Heron at the marsh before the vault' })).toBeVisible();

  // Search and filters run in the browser over the opened journal.
  const search = page.getByLabel('Search entries');
  await search.fill('zebra');
  await search.press('Enter');
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText('Zebra crossing by the sea');
  await search.fill('');
  await search.press('Enter');
  await expect(cards(page)).toHaveCount(2);

  // An edit is sealed in the browser before it is sent.
  const heron = cards(page).filter({ hasText: 'Heron at the marsh' });
  await heron.getByRole('button', { name: /^Edit entry/ }).click();
  const editor = page.getByRole('form', { name: 'Edit entry' });
  await editor.getByRole('textbox').first().fill('Herons, three of them, at the marsh');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(cards(page).filter({ hasText: 'Herons, three of them' })).toBeVisible();

  // Exported in the browser: plain text, and the ZIP with Journal.json.
  const txt = await exportAs(page, 'Plain text');
  expect(txt.name).toMatch(/^journal-export-\d{4}-\d{2}-\d{2}\.txt$/);
  expect(txt.body.toString('utf8')).toContain('Herons, three of them, at the marsh');
  expect(txt.body.toString('utf8')).toContain('Zebra crossing by the sea');
  const zip = await exportAs(page, 'Everything (ZIP with photos)');
  const files = unzipSync(new Uint8Array(zip.body));
  expect(new TextDecoder().decode(files['Journal.json'])).toContain('Zebra crossing by the sea');

  // A photo sealed here as it is written, then the PDF with photos, made here too: the photo opened
  // and drawn in it, the entry's Markdown drawn and its emoji kept.
  await page.getByRole('button', { name: 'New entry' }).click();
  const writer = page.getByRole('dialog', { name: 'New entry' });
  await writer.getByLabel('Your entry').fill('Kingfisher over the **weir** 🐦');
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#0ea5e9' } }).png().toBuffer();
  await writer.locator('input[type=file]').setInputFiles({ name: 'weir.png', mimeType: 'image/png', buffer: photo });
  await expect(writer.getByRole('list', { name: 'Attached photos' }).getByRole('listitem')).toHaveCount(1);
  await writer.getByRole('button', { name: 'Save' }).click();
  await expect(writer).toBeHidden();
  await expect(cards(page).filter({ hasText: 'Kingfisher over the' })).toBeVisible({ timeout: 20_000 });
  const pdf = await exportAs(page, 'PDF', true);
  expect(pdf.name).toMatch(/^journal-export-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const doc = await PDFDocument.load(new Uint8Array(pdf.body));
  // The title page, then the entries.
  expect(doc.getPageCount()).toBeGreaterThan(1);
  expect(doc.getPages().flatMap((p) => pageLines(doc, p))).toContain('Kingfisher over the weir 🐦');
  expect(blankGlyphs(doc)).toEqual([]);
  const images = doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter((object): object is PDFRawStream => object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
  expect(images.map((image) => [image.dict.lookup(PDFName.of('Width'), PDFNumber).asNumber(), image.dict.lookup(PDFName.of('Height'), PDFNumber).asNumber()])).toEqual([[320, 240]]);

  // Lock vault: the journal is gone from the page until it is unlocked again.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: journal.lock }).click();
  await expect(page.getByRole('heading', { name: journal.lockedTitle })).toBeVisible();
  await expect(page.getByText('Zebra crossing by the sea')).toHaveCount(0);

  // A sign-in by texted link opens the account, not the vault; the recovery code opens the vault.
  const laptop = await (await browser.newContext()).newPage();
  await text(handset, 'LINK');
  const linkText = handset.getByRole('log', { name: 'Conversation' }).getByText(/Your sign-in link/).last();
  await expect(linkText).toBeVisible({ timeout: 20_000 });
  const link = /(https?:\/\/\S+\/auth\/callback\?token=\S+)/.exec(await linkText.innerText())![1]!;
  await laptop.goto(link);
  await expect(laptop).toHaveURL(/\/journal$/, { timeout: 20_000 });
  await unlock(laptop, code.toLowerCase().replace(/-/g, ' '), true);
  await expect(cards(laptop).filter({ hasText: 'Zebra crossing by the sea' })).toBeVisible({ timeout: 20_000 });

  // A new passphrase: the old one no longer opens the vault, the new one does.
  await toSettings(laptop);
  const laptopVault = vaultCard(laptop);
  await laptopVault.getByRole('button', { name: card.changePassphrase }).click();
  await laptopVault.getByLabel(card.newPassphraseLabel).fill(NEW_PASSPHRASE);
  await laptopVault.getByLabel(card.passphraseAgainLabel).fill(NEW_PASSPHRASE);
  await laptopVault.getByRole('button', { name: card.savePassphrase }).click();
  await expect(laptopVault.getByText(card.passphraseChanged)).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await unlock(page, PASSPHRASE);
  await expect(page.getByText(card.wrongPassphrase)).toBeVisible({ timeout: 20_000 });
  await page.getByLabel(card.passphraseLabel).fill(NEW_PASSPHRASE);
  await page.getByRole('button', { name: card.unlock }).click();
  await expect(cards(page).filter({ hasText: 'Zebra crossing by the sea' })).toBeVisible({ timeout: 20_000 });

  // Turning it off opens every entry here and hands it back; the journal then needs no unlocking.
  await toSettings(page);
  const pageVault = vaultCard(page);
  await pageVault.getByRole('button', { name: card.turnOff }).click();
  await pageVault.getByRole('button', { name: card.turnOffConfirm }).click();
  await expect(pageVault.getByRole('button', { name: card.setUp })).toBeVisible({ timeout: 60_000 });
  await page.goto('/journal');
  await expect(cards(page).filter({ hasText: 'Zebra crossing by the sea' })).toBeVisible({ timeout: 20_000 });
  await expect(cards(page).filter({ hasText: 'Herons, three of them' })).toBeVisible();
  await expect(page.getByRole('heading', { name: journal.lockedTitle })).toHaveCount(0);
});
