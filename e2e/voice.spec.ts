import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { vaultMessages } from '../src/shared/vault-messages';
import { CRICKETS, FOGHORN } from './fake-transcriber.mjs';
import { signUpVerified } from './support';
import { turnOnVault } from './vault-support';

// Chromium's fake microphone (a steady tone) stands in for a person talking; the prompt is granted.
test.use({
  permissions: ['microphone'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ],
  },
});

/** A mono 16-bit PCM WAV of a 440 Hz tone. */
function toneWav(seconds: number, rate = 16_000): Buffer {
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

/** The length the browser's player found in the audio itself (not the label's). */
async function playableSeconds(audio: Locator): Promise<number> {
  await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  return audio.evaluate((el: HTMLAudioElement) => el.duration);
}

async function openRecorder(page: Page, card: Locator) {
  await card.getByRole('button', { name: /^Record voice note for entry from/ }).click();
  return card.getByRole('region', { name: 'Voice note' });
}

test('record a voice note in the browser and upload an audio file to an entry', async ({ page, request }) => {
  await signUpVerified(page, request);
  await page.getByRole('button', { name: 'Create Your First Entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'New entry' });
  await dialog.getByLabel('Your entry').fill('Evening by the lake.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const card = page.locator('article').first();
  await expect(card).toContainText('Evening by the lake.');

  // Record about two and a half seconds from the (fake) microphone.
  let recorder = await openRecorder(page, card);
  await recorder.getByRole('button', { name: 'Record voice note' }).click();
  const stop = recorder.getByRole('button', { name: 'Stop' });
  await expect(stop).toBeFocused();
  await expect(recorder.getByText('0:02 / 5:00')).toBeVisible();
  await page.waitForTimeout(500);
  await stop.click();
  await expect(page.getByText('Voice note saved').first()).toBeVisible();
  await expect(recorder).toBeHidden();

  const notes = card.getByRole('list', { name: 'Voice notes' }).getByRole('listitem');
  await expect(notes).toHaveCount(1);
  await expect(notes.first()).toContainText(/Voice note, 0:0[2-4]/);
  const recorded = await playableSeconds(notes.first().locator('audio'));
  expect(Number.isFinite(recorded) && recorded > 1.5).toBe(true);
  // The transcription service hears it (the journeys' service hears it as CRICKETS), and the entry gains its words.
  await expect(card).toContainText(CRICKETS, { timeout: 30_000 });
  await expect(notes.first()).not.toContainText('Transcribing');

  // And an audio file picked from the device, which the service refuses: kept, and "Not transcribed".
  recorder = await openRecorder(page, card);
  await recorder.getByLabel('Upload audio file').setInputFiles({ name: 'tone.wav', mimeType: 'audio/wav', buffer: toneWav(8) });
  await expect(notes).toHaveCount(2);
  await expect(notes.nth(1)).toContainText('Voice note, 0:08');
  expect(await playableSeconds(notes.nth(1).locator('audio'))).toBeCloseTo(8, 0);
  await expect(notes.nth(1)).toContainText('Not transcribed', { timeout: 30_000 });
  await expect(notes.nth(1).getByRole('button', { name: /Transcribe again/ })).toBeVisible();

  // Search finds the note by a word it was heard to say.
  const search = page.getByRole('searchbox', { name: 'Search entries' }).or(page.getByLabel('Search entries'));
  await search.fill('nightfall');
  await expect(page.locator('article')).toHaveCount(1);
  await search.fill('');

  // The players, the transcript's state and the recorder pass axe (WCAG 2.1 A/AA, nothing serious).
  await openRecorder(page, card);
  const results = await new AxeBuilder({ page }).include('article').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await card.getByRole('region', { name: 'Voice note' }).getByRole('button', { name: 'Cancel' }).click();

  // Voice notes are what the Voice filter finds.
  await page.getByRole('button', { name: /Filters/ }).click();
  await page.getByRole('group', { name: 'Source' }).getByText('Voice', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Voice' })).toBeChecked();
  await expect(page).toHaveURL(/source=voice/);
  await expect(page.locator('article')).toHaveCount(1);

  // Deleting one asks first.
  await notes.first().getByRole('button', { name: /^Delete Voice note/ }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete voice note' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(notes).toHaveCount(1);
});

test("a Vault user's voice note is sealed on the server and opened in the browser to play", async ({ page, request }) => {
  test.setTimeout(180_000);
  await signUpVerified(page, request);
  await page.getByRole('button', { name: 'Create Your First Entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'New entry' });
  await dialog.getByLabel('Your entry').fill('Fog on the harbour.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await page.goto('/settings');
  await turnOnVault(page, 'marsh heron listens at dawn 42');

  await page.goto('/journal');
  await expect(page.getByRole('heading', { name: vaultMessages.journal.lockedTitle })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel(vaultMessages.card.passphraseLabel).fill('marsh heron listens at dawn 42');
  await page.getByRole('button', { name: vaultMessages.card.unlock }).click();
  const card = page.locator('article').filter({ hasText: 'Fog on the harbour.' });
  await expect(card).toBeVisible({ timeout: 20_000 });

  const recorder = await openRecorder(page, card);
  await recorder.getByLabel('Upload audio file').setInputFiles({ name: 'tone.wav', mimeType: 'audio/wav', buffer: toneWav(6) });
  const note = card.getByRole('list', { name: 'Voice notes' }).getByRole('listitem');
  await expect(note).toHaveCount(1, { timeout: 20_000 });
  await expect(note).toContainText('Voice note, 0:06');
  const audio = note.locator('audio');
  // The stored bytes are sealed: the player gets them opened here, from a blob: address.
  await expect(audio).toHaveAttribute('src', /^blob:/);
  expect(await playableSeconds(audio)).toBeCloseTo(6, 0);
  // Heard once from memory on the server, then sealed: the words reach the entry opened here.
  await expect(card).toContainText(FOGHORN, { timeout: 30_000 });
  await expect(note).not.toContainText('Transcribing');
});

test('a call from the phone simulator lands in today’s entry, plays, and is found by a word the caller said', async ({ page, request, context }) => {
  const account = await signUpVerified(page, request);

  const phonePage = await context.newPage();
  await phonePage.goto('/dev/phone');
  await phonePage.getByLabel("This phone's number (US)").fill(account.phone.slice(2));
  await phonePage.getByRole('button', { name: 'Use number' }).click();
  const call = phonePage.getByRole('form', { name: 'Call the journal number' });
  await call.getByLabel('Audio file').setInputFiles({ name: 'walk.wav', mimeType: 'audio/wav', buffer: toneWav(5, 8_000) });
  await call.getByLabel('What the caller says').fill('Walked the levee at dusk, herons everywhere.');
  await call.getByRole('button', { name: 'Call' }).click();
  await expect(call.getByRole('status')).toContainText('Talk after the tone', { timeout: 20_000 });
  await expect(call.getByRole('status')).toContainText('(recorded into the journal)');

  // The recording is downloaded by the server's job and attached to today's phone entry, transcript and all.
  await page.bringToFront();
  const note = page.locator('article').getByRole('list', { name: 'Voice notes' }).getByRole('listitem');
  await expect(note).toHaveCount(1, { timeout: 30_000 });
  await expect(note).toContainText('Voice note, 0:05');
  expect(await playableSeconds(note.locator('audio'))).toBeCloseTo(5, 0);
  await expect(page.locator('article').first()).toContainText('herons everywhere');

  const search = page.getByRole('searchbox', { name: 'Search entries' }).or(page.getByLabel('Search entries'));
  await search.fill('levee');
  await expect(page.locator('article')).toHaveCount(1);
  await expect(page.locator('article').first()).toContainText('Walked the levee at dusk');
  await search.fill('glacier');
  await expect(page.getByText('No entries match your search')).toBeVisible();
});
