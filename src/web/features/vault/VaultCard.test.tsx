import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { VaultView, WrappedKeys } from '../../../shared/vault';
import { vaultMessages } from '../../../shared/vault-messages';
import { fakeSession, installFakeApi, reply, type FakeApi } from '../../test/fake-api';
import { sessionStore } from '../../api/session-store';
import { renderApp } from '../../test/render-app';
import { lockVault, vaultKeys } from './key-store';
import { createVault, sealSegment, unlockWithPassphrase, unlockWithRecoveryCode, type NewVault } from './vault-crypto';
import { VaultCard } from './VaultCard';

const copy = vaultMessages.card;
const PASSPHRASE = 'otters hold hands while sleeping';

const view = (overrides: Partial<VaultView>): VaultView => ({ enabled: false, state: 'off', public_key: null, wrapped_keys: null, sealed_entries: 0, total_entries: 60, ...overrides });

/** A fake /api/vault that keeps what it is sent, and seals a 60-entry journal in two steps. */
function installVaultApi(initial: VaultView): FakeApi {
  const api = installFakeApi();
  let stored = initial;
  api.on('GET /api/vault', () => reply(200, stored));
  api.on('PUT /api/vault', (request) => {
    stored = view({ enabled: true, state: 'sealing', public_key: request.body.public_key, wrapped_keys: request.body.wrapped_keys });
    return reply(200, stored);
  });
  api.on('POST /api/vault/seal', () => {
    const sealed = Math.min(60, stored.sealed_entries + 50);
    stored = { ...stored, sealed_entries: sealed, state: sealed === 60 && stored.sealed_entries === 60 ? 'on' : 'sealing' };
    return reply(200, stored);
  });
  api.on('PUT /api/vault/keys', (request) => {
    stored = { ...stored, wrapped_keys: request.body.wrapped_keys };
    return reply(200, stored);
  });
  sessionStore.set(fakeSession({ access_token: 'token-1' }));
  return api;
}

const renderCard = () => renderApp([{ path: '/settings', element: <VaultCard /> }], ['/settings']);
const card = async () => within((await screen.findByRole('heading', { name: copy.title })).closest('section')!);

let existing: NewVault;
beforeAll(async () => {
  existing = await createVault(PASSPHRASE);
});
afterEach(() => lockVault());

describe('Settings → Vault: setting it up', () => {
  it('warns first, takes a strong passphrase twice, shows the recovery code once, checks it, then turns on and seals the journal', async () => {
    const api = installVaultApi(view({}));
    renderCard();
    const vault = await card();
    const user = userEvent.setup();

    // Before anything: what the server still sees, and that a lost passphrase and code lose the journal.
    await vault.findByText(vaultMessages.serverCannotSee);
    for (const item of vaultMessages.serverSees) expect(vault.getByText(item)).toBeInTheDocument();
    expect(vault.getByText(vaultMessages.lossWarning)).toBeInTheDocument();
    const setUp = vault.getByRole('button', { name: copy.setUp });
    expect(setUp).toBeDisabled();
    await user.click(vault.getByRole('checkbox', { name: copy.understand }));
    await user.click(setUp);

    const [passphrase, again] = [vault.getByLabelText(copy.passphraseLabel), vault.getByLabelText(copy.passphraseAgainLabel)];
    await user.type(passphrase, 'journal2026');
    expect(await vault.findByText(`${copy.strengthLabel}: ${copy.strength.weak}`, {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(vault.getByRole('button', { name: copy.continue }));
    expect(await vault.findByText(copy.tooWeak)).toBeInTheDocument();
    await user.clear(passphrase);
    await user.type(passphrase, PASSPHRASE);
    expect(vault.getByText(`${copy.strengthLabel}: ${copy.strength.strong}`)).toBeInTheDocument();
    await user.type(again, `${PASSPHRASE}.`);
    await user.click(vault.getByRole('button', { name: copy.continue }));
    expect(await vault.findByText(copy.mismatch)).toBeInTheDocument();
    await user.clear(again);
    await user.type(again, PASSPHRASE);
    await user.click(vault.getByRole('button', { name: copy.continue }));

    const shown = await vault.findByLabelText(copy.codeTitle, {}, { timeout: 15_000 });
    const code = shown.textContent!;
    expect(code).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);
    expect(vault.getByRole('button', { name: copy.download })).toBeInTheDocument();
    expect(vault.getByRole('button', { name: copy.print })).toBeInTheDocument();
    await user.click(vault.getByRole('button', { name: copy.saved }));

    const confirm = vault.getByLabelText(/^Type group \d of your recovery code$/);
    const group = Number(/group (\d)/.exec(confirm.closest('div')!.querySelector('label')!.textContent!)![1]);
    await user.type(confirm, group === 1 ? code.split('-')[1]! : code.split('-')[0]!);
    await user.click(vault.getByRole('button', { name: copy.turnOn }));
    expect(await vault.findByText(copy.confirmWrong(group))).toBeInTheDocument();
    expect(api.requestsTo('PUT /api/vault')).toHaveLength(0);
    await user.clear(confirm);
    await user.type(confirm, code.split('-')[group - 1]!.toLowerCase());
    await user.click(vault.getByRole('button', { name: copy.turnOn }));

    // The server got the public key and the private key wrapped: both the passphrase and the code open it.
    await waitFor(() => expect(api.requestsTo('PUT /api/vault')).toHaveLength(1));
    const sent = api.requestsTo('PUT /api/vault')[0]!.body as { public_key: string; wrapped_keys: WrappedKeys };
    expect(JSON.stringify(sent)).not.toContain(code);
    const opened = await unlockWithPassphrase(sent.wrapped_keys, PASSPHRASE, sent.public_key);
    expect((await unlockWithRecoveryCode(sent.wrapped_keys, code, sent.public_key)).privateKey).toEqual(opened.privateKey);

    // Then the journal already written is sealed, with its progress shown, and the vault is on and unlocked.
    expect(await vault.findByText(copy.unlocked, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(api.requestsTo('POST /api/vault/seal').length).toBeGreaterThanOrEqual(2);
    expect(vaultKeys()?.privateKey).toEqual(opened.privateKey);
  });

  it("refuses a passphrase zxcvbn reckons under 10^10 guesses, with zxcvbn's own advice, and takes four random words", async () => {
    const api = installVaultApi(view({}));
    renderCard();
    const vault = await card();
    const user = userEvent.setup();
    await user.click(await vault.findByRole('checkbox', { name: copy.understand }));
    await user.click(vault.getByRole('button', { name: copy.setUp }));
    const [passphrase, again] = [vault.getByLabelText(copy.passphraseLabel), vault.getByLabelText(copy.passphraseAgainLabel)];

    const refused: [string, string | null, string[]][] = [
      // zxcvbn has no warning above its score 2 (10^8 guesses): its first advice stands in.
      ['Summer2024!!', null, ['Add more words that are less common.']],
      ['Jennifer1985!', 'This is similar to a commonly used password.', ['Add more words that are less common.', 'Capitalize more than the first letter.']],
      ['baseball1234', 'This is similar to a commonly used password.', ['Add more words that are less common.']],
    ];
    const retype = async (field: HTMLElement, text: string) => {
      await user.clear(field);
      await user.paste(text);
    };
    for (const [guessable, warning, suggestions] of refused) {
      await retype(passphrase, guessable);
      await retype(again, guessable);
      expect(await vault.findByText(`${copy.strengthLabel}: ${copy.strength.weak}`, {}, { timeout: 10_000 })).toBeInTheDocument();
      for (const advice of [warning, ...suggestions].filter((line) => line !== null)) {
        expect(vault.getByText(advice)).toBeInTheDocument();
        expect(passphrase).toHaveAccessibleDescription(expect.stringContaining(advice));
      }
      await user.click(vault.getByRole('button', { name: copy.continue }));
      expect(await vault.findByText(copy.tooWeak)).toBeInTheDocument();
      expect(passphrase).toHaveAttribute('aria-invalid', 'true');
      expect(vault.queryByText(copy.makingKeys)).toBeNull();
    }

    const fourWords = 'crater velvet oboe mantis';
    await retype(passphrase, fourWords);
    expect(vault.getByText(`${copy.strengthLabel}: ${copy.strength.strong}`)).toBeInTheDocument();
    expect(vault.queryByText('Add more words that are less common.')).toBeNull();
    await retype(again, fourWords);
    await user.click(vault.getByRole('button', { name: copy.continue }));
    expect(await vault.findByLabelText(copy.codeTitle, {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(api.requestsTo('PUT /api/vault')).toHaveLength(0);
  });

  it('says so when sealing stops, and carries on from there', async () => {
    const api = installVaultApi(view({ enabled: true, state: 'sealing', public_key: existing.publicKey, wrapped_keys: existing.wrappedKeys, sealed_entries: 10 }));
    api.once('POST /api/vault/seal', reply(503, { error: { code: 'UNAVAILABLE', message: 'Try again' } }));
    renderCard();
    const vault = await card();
    expect(await vault.findByText(copy.sealingStopped)).toBeInTheDocument();
    expect(vault.getByRole('progressbar', { name: copy.sealing })).toHaveAttribute('aria-valuetext', copy.sealedOf(10, 60));
    await userEvent.setup().click(vault.getByRole('button', { name: copy.continueSealing }));
    expect(await vault.findByText(copy.onLead)).toBeInTheDocument();
  });
});

describe('Settings → Vault: unlocking and locking', () => {
  const onView = () => view({ enabled: true, state: 'on', public_key: existing.publicKey, wrapped_keys: existing.wrappedKeys, sealed_entries: 60 });

  it('unlocks with the passphrase, after saying plainly when it is wrong', async () => {
    installVaultApi(onView());
    renderCard();
    const vault = await card();
    const user = userEvent.setup();
    expect(await vault.findByText(copy.locked)).toBeInTheDocument();
    await user.type(vault.getByLabelText(copy.passphraseLabel), 'otters hold hands while awake');
    await user.click(vault.getByRole('button', { name: copy.unlock }));
    expect(await vault.findByText(copy.wrongPassphrase, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(vaultKeys()).toBeNull();

    await user.clear(vault.getByLabelText(copy.passphraseLabel));
    await user.type(vault.getByLabelText(copy.passphraseLabel), PASSPHRASE);
    await user.click(vault.getByRole('button', { name: copy.unlock }));
    expect(await vault.findByText(copy.unlocked, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(vaultKeys()?.privateKey).toEqual(existing.keys.privateKey);
  });

  it('unlocks with the recovery code instead, however it is typed', async () => {
    installVaultApi(onView());
    renderCard();
    const vault = await card();
    const user = userEvent.setup();
    await user.click(await vault.findByRole('button', { name: copy.useCode }));
    await user.type(vault.getByLabelText(copy.codeLabel), 'ABCDE-12345');
    await user.click(vault.getByRole('button', { name: copy.unlock }));
    expect(await vault.findByText(copy.malformedCode)).toBeInTheDocument();
    await user.clear(vault.getByLabelText(copy.codeLabel));
    await user.type(vault.getByLabelText(copy.codeLabel), existing.recoveryCode.toLowerCase().replace(/-/g, ' '));
    await user.click(vault.getByRole('button', { name: copy.unlock }));
    expect(await vault.findByText(copy.unlocked, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(vaultKeys()?.privateKey).toEqual(existing.keys.privateKey);
  });

  it('locks on request: the private key is wiped from memory', async () => {
    installVaultApi(onView());
    renderCard();
    const vault = await card();
    const user = userEvent.setup();
    await user.type(await vault.findByLabelText(copy.passphraseLabel), PASSPHRASE);
    await user.click(vault.getByRole('button', { name: copy.unlock }));
    await vault.findByText(copy.unlocked, {}, { timeout: 5000 });
    const held = vaultKeys()!;
    await user.click(vault.getByRole('button', { name: copy.lock }));
    expect(await vault.findByText(copy.locked)).toBeInTheDocument();
    expect(vaultKeys()).toBeNull();
    expect(held.privateKey.every((b) => b === 0)).toBe(true);
    expect(vault.getByLabelText(copy.passphraseLabel)).toBeInTheDocument();
  });

  it('changes the passphrase by wrapping the same key anew', async () => {
    const api = installVaultApi(onView());
    renderCard();
    const vault = await card();
    const user = userEvent.setup();
    await user.type(await vault.findByLabelText(copy.passphraseLabel), PASSPHRASE);
    await user.click(vault.getByRole('button', { name: copy.unlock }));
    await vault.findByText(copy.unlocked, {}, { timeout: 5000 });
    await user.click(vault.getByRole('button', { name: copy.changePassphrase }));
    // A guessable one is refused here too, with zxcvbn's advice, and nothing is sent.
    await user.type(vault.getByLabelText(copy.newPassphraseLabel), 'baseball1234');
    await user.type(vault.getByLabelText(copy.passphraseAgainLabel), 'baseball1234');
    expect(await vault.findByText('This is similar to a commonly used password.', {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(vault.getByRole('button', { name: copy.savePassphrase }));
    expect(await vault.findByText(copy.tooWeak)).toBeInTheDocument();
    expect(api.requestsTo('PUT /api/vault/keys')).toHaveLength(0);
    await user.clear(vault.getByLabelText(copy.newPassphraseLabel));
    await user.clear(vault.getByLabelText(copy.passphraseAgainLabel));
    await user.type(vault.getByLabelText(copy.newPassphraseLabel), 'lanterns drift over quiet harbours');
    await user.type(vault.getByLabelText(copy.passphraseAgainLabel), 'lanterns drift over quiet harbours');
    await user.click(vault.getByRole('button', { name: copy.savePassphrase }));
    expect(await vault.findByText(copy.passphraseChanged, {}, { timeout: 10_000 })).toBeInTheDocument();
    const sent = api.requestsTo('PUT /api/vault/keys')[0]!.body as { public_key: string; wrapped_keys: WrappedKeys };
    expect(sent.public_key).toBe(existing.publicKey);
    expect((await unlockWithPassphrase(sent.wrapped_keys, 'lanterns drift over quiet harbours', existing.publicKey)).privateKey).toEqual(existing.keys.privateKey);
    expect(sent.wrapped_keys.recovery).toEqual(existing.wrappedKeys.recovery);
  });

  it('turns off: every entry opened here and handed back, then the vault is gone', async () => {
    const api = installVaultApi(onView());
    let sealed = [
      { id: 'e1', entry_date: '2026-11-24', source: 'sms', created_at: '2026-11-24T08:00:00Z', updated_at: '2026-11-24T08:00:00Z', photos: [], recordings: [], sealed: [await sealSegment(existing.keys.publicKey, { text: 'Toast and tea', at: '2026-11-24T08:00:00Z', source: 'sms' })] },
    ];
    let state: VaultView = onView();
    api.on('GET /api/vault', () => reply(200, state));
    api.on('POST /api/vault/unseal', () => reply(200, (state = { ...state, state: 'unsealing' })));
    api.on('GET /api/vault/sealed', () => reply(200, { entries: sealed }));
    api.on('POST /api/vault/opened', (request) => {
      sealed = [];
      return reply(200, { opened: request.body.entries.map((e: { id: string }) => e.id), skipped: [] });
    });
    api.on('DELETE /api/vault', () => {
      state = view({});
      return reply(204);
    });
    renderCard();
    const vault = await card();
    const user = userEvent.setup();
    await user.type(await vault.findByLabelText(copy.passphraseLabel), PASSPHRASE);
    await user.click(vault.getByRole('button', { name: copy.unlock }));
    await user.click(await vault.findByRole('button', { name: copy.turnOff }, { timeout: 5000 }));
    expect(vault.getByText(copy.turnOffLead)).toBeInTheDocument();
    await user.click(vault.getByRole('button', { name: copy.turnOffConfirm }));

    expect(await vault.findByRole('button', { name: copy.setUp })).toBeInTheDocument();
    expect(api.requestsTo('POST /api/vault/opened')[0]!.body.entries).toEqual([{ id: 'e1', segments: 1, content: 'Toast and tea', title: null, tags: [], photos: [], recordings: [] }]);
    expect(api.requestsTo('DELETE /api/vault')).toHaveLength(1);
    expect(vaultKeys()).toBeNull();
    expect(await screen.findByText(copy.turnedOff)).toBeInTheDocument();
  });
});
