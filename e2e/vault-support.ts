import { expect, type Page } from '@playwright/test';
import { vaultMessages } from '../src/shared/vault-messages';

const card = vaultMessages.card;

/** Settings' Vault card. */
export const vaultCard = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: card.title, exact: true }) }).first();

/**
 * Turns the vault on from Settings as a person does: the warning, the passphrase typed twice, the
 * recovery code kept and a group of it typed back; waits until the journal is sealed. Answers the code.
 */
export async function turnOnVault(page: Page, passphrase: string): Promise<string> {
  const vault = vaultCard(page);
  await vault.getByRole('checkbox', { name: card.understand }).check();
  await vault.getByRole('button', { name: card.setUp }).click();
  await vault.getByLabel(card.passphraseLabel).fill(passphrase);
  await vault.getByLabel(card.passphraseAgainLabel).fill(passphrase);
  await vault.getByRole('button', { name: card.continue }).click();
  const shown = vault.getByLabel(card.codeTitle);
  await expect(shown).toBeVisible({ timeout: 60_000 });
  const code = (await shown.innerText()).trim();
  await vault.getByRole('button', { name: card.saved }).click();
  const group = Number(/group (\d)/.exec(await vault.locator('label', { hasText: /^Type group \d/ }).innerText())![1]);
  await vault.getByLabel(/^Type group \d of your recovery code$/).fill(code.split('-')[group - 1]!);
  await vault.getByRole('button', { name: card.turnOn }).click();
  // The journal already written is sealed, with a bar, and the vault is on.
  await expect(vault.getByText(card.onLead)).toBeVisible({ timeout: 60_000 });
  return code;
}
