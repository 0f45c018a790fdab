import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { messages } from '../src/shared/messages';
import { vaultMessages } from '../src/shared/vault-messages';
import { signUpVerified } from './support';
import { turnOnVault, vaultCard } from './vault-support';

// Import into a Vault: the file is read and sealed in the browser (the server cannot read it),
// with the vault unlocked in the Vault card; a jrnl journal, then a Day One ZIP with a photo.

const card = vaultMessages.card;
const PASSPHRASE = 'otters juggle pebbles near the weir 9';

test.setTimeout(240_000);

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

async function dayOneZip(): Promise<Buffer> {
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#0ea5e9' } }).jpeg().toBuffer();
  const journal = {
    metadata: { version: '1.0' },
    entries: [
      {
        uuid: '7A1B2C3D4E5F60718293A4B5C6D7E8F9',
        creationDate: '2023-08-12T06:30:00Z',
        timeZone: 'Europe/Lisbon',
        text: '# Kingfisher on the weir\n\nIt waited on the post for a long time\\.\n\n![](dayone-moment://AB12CD34EF56AB12CD34EF56AB12CD34)',
        tags: ['birds'],
        photos: [{ identifier: 'AB12CD34EF56AB12CD34EF56AB12CD34', md5: md5(photo), type: 'jpeg', orderInEntry: 0 }],
      },
    ],
  };
  return Buffer.from(zipSync({ 'Journal.json': new TextEncoder().encode(JSON.stringify(journal)), [`photos/${md5(photo)}.jpeg`]: new Uint8Array(photo) }));
}

const JRNL = ['[2021-04-03 07:15] Otters at the river mouth.', 'Two of them, diving for crabs. @wildlife', '', '[2021-04-04 20:40] Quiet evening.', 'Read by the window.', ''].join('\n');

test('with the vault on, an import is read and sealed in the browser: unlock, a jrnl journal, a Day One ZIP with a photo, then the same file again', async ({ page, request }) => {
  await signUpVerified(page, request);
  await page.goto('/settings');
  await turnOnVault(page, PASSPHRASE);

  // A fresh page holds no keys: the import waits for the vault to be unlocked in its card.
  await page.goto('/settings');
  const importCard = page.getByRole('region', { name: 'Import' });
  await expect(importCard.getByText(messages.importer.vaultLocked)).toBeVisible({ timeout: 20_000 });
  await importCard.getByLabel('Journal file').setInputFiles({ name: 'journal.txt', mimeType: 'text/plain', buffer: Buffer.from(JRNL) });
  await expect(importCard.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  const vault = vaultCard(page);
  await vault.getByLabel(card.passphraseLabel).fill(PASSPHRASE);
  await vault.getByRole('button', { name: card.unlock }).click();
  await expect(importCard.getByText(messages.importer.vaultLocked)).toBeHidden({ timeout: 30_000 });

  // The jrnl journal: its two entries come in, sealed.
  const sent: string[] = [];
  page.on('request', (req) => {
    if (req.url().endsWith('/api/vault/imported')) sent.push(req.postData() ?? '');
  });
  await importCard.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(importCard.getByRole('status')).toContainText('Imported 2 of 2 entries', { timeout: 60_000 });
  expect(sent.length).toBeGreaterThan(0);
  for (const body of sent) expect(body).not.toContain('Otters');

  // The same jrnl file again adds nothing, and says why.
  await importCard.getByLabel('Journal file').setInputFiles({ name: 'journal.txt', mimeType: 'text/plain', buffer: Buffer.from(JRNL) });
  await importCard.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(importCard.getByRole('status')).toContainText('2 entries were already in your journal', { timeout: 60_000 });

  // A Day One ZIP with a photo.
  await importCard.getByLabel('Journal file').setInputFiles({ name: 'Kingfisher.zip', mimeType: 'application/zip', buffer: await dayOneZip() });
  await importCard.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(importCard.getByRole('status')).toContainText('Imported 1 of 1 entry', { timeout: 60_000 });
  await expect(importCard.getByRole('status')).toContainText('1 photo added');

  // In the journal (within the app, so the keys stay): the entries, opened here, the photo with them.
  await importCard.getByRole('link', { name: 'Open your journal' }).click();
  await expect(page).toHaveURL(/\/journal$/);
  const cards = page.getByRole('article');
  await expect(cards.filter({ hasText: 'Otters at the river mouth.' })).toBeVisible({ timeout: 30_000 });
  await expect(cards.filter({ hasText: 'Read by the window.' })).toBeVisible();
  const kingfisher = cards.filter({ hasText: 'Kingfisher on the weir' });
  await expect(kingfisher).toContainText('It waited on the post for a long time.');
  await expect(kingfisher.getByRole('list', { name: 'Photos' }).getByRole('img')).toHaveCount(1, { timeout: 20_000 });
});
