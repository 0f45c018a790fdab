import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { sessionStore } from '../../api/session-store';
import { loadOnce } from '../../components/ui/load-once';
import { lockVault, subscribeToVaultKeys, vaultKeys } from '../vault/key-store';

// Whether the signed-in journal is a Vault's: the server says so with its first page of entries
// (`vault: true`). Its entries are then opened, searched, counted and written in this tab by
// features/vault/journal, whose code (and libsodium) loads only for a Vault journal.

let vaultOwner: string | null = null;
let stale = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const signedInUser = () => sessionStore.get()?.user.id ?? null;

/** The Vault journal's code: loaded the first time the journal turns out to be a Vault's. */
export const vaultJournalCode = loadOnce(() => import('../vault/journal/vault-journal'));

/** Whether the signed-in user's journal is a Vault's (as far as this tab has heard). */
export function isVaultJournal(): boolean {
  return vaultOwner !== null && vaultOwner === signedInUser();
}

/** The server said the journal has a Vault, or no longer has one (turned off). */
export function setVaultJournal(on: boolean): void {
  const owner = on ? signedInUser() : null;
  if (owner === vaultOwner) return;
  vaultOwner = owner;
  notify();
}

/** The journal changed (the live stream, a write): the opened Vault journal reads it again. */
export function markVaultJournalStale(): void {
  stale = true;
}

/** Whether the journal changed since the opened Vault journal last read it; reading it clears the mark. */
export function takeVaultJournalStale(): boolean {
  const was = stale;
  stale = false;
  return was;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const keys = subscribeToVaultKeys(listener);
  return () => {
    listeners.delete(listener);
    keys();
  };
}

// Another account signed in (or none): the vault's keys and its journal are not theirs.
sessionStore.subscribe(() => {
  if (vaultOwner === null || vaultOwner === signedInUser()) return;
  vaultOwner = null;
  lockVault();
  notify();
});

/** 'none': no Vault; 'locked': a Vault whose keys are not in this tab; 'unlocked'. */
type VaultJournalState = 'none' | 'locked' | 'unlocked';
const snapshot = (): VaultJournalState => (!isVaultJournal() ? 'none' : vaultKeys() ? 'unlocked' : 'locked');

export function useVaultJournal(): VaultJournalState {
  return useSyncExternalStore(subscribe, snapshot, () => 'none');
}

/**
 * The journal page's view of its Vault. Locking drops every opened entry the query cache holds;
 * unlocking, or the Vault being turned off, reads the journal again.
 */
export function useVaultJournalPage(): VaultJournalState {
  const state = useVaultJournal();
  const queryClient = useQueryClient();
  const previous = useRef(state);
  useEffect(() => {
    if (previous.current === state) return;
    previous.current = state;
    if (state === 'locked') queryClient.removeQueries({ queryKey: ['journal'] });
    else void queryClient.invalidateQueries({ queryKey: ['journal'] });
  }, [state, queryClient]);
  return state;
}
