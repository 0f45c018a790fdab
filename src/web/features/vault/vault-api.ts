import type { OpenedEntryInput, SealedEntry, VaultView, WrappedKeys } from '../../../shared/vault';
import { apiRequest } from '../../api/client';

// The /api/vault endpoints (docs/vault.md).

export const vaultQueryKey = ['vault'] as const;

export const fetchVault = (signal?: AbortSignal) => apiRequest<VaultView>('GET', '/api/vault', { signal });

export const turnOnVault = (publicKey: string, wrappedKeys: WrappedKeys) =>
  apiRequest<VaultView>('PUT', '/api/vault', { body: { public_key: publicKey, wrapped_keys: wrappedKeys } });

export const saveWrappedKeys = (publicKey: string, wrappedKeys: WrappedKeys) =>
  apiRequest<VaultView>('PUT', '/api/vault/keys', { body: { public_key: publicKey, wrapped_keys: wrappedKeys } });

/** Seals the next batch of the journal on the server; `state` is `on` once none is left. */
export const sealNextBatch = () => apiRequest<VaultView>('POST', '/api/vault/seal');

export const startTurningOff = () => apiRequest<VaultView>('POST', '/api/vault/unseal');

export const fetchSealedBatch = () => apiRequest<{ entries: SealedEntry[] }>('GET', '/api/vault/sealed');

export const sendOpenedEntries = (entries: OpenedEntryInput[]) =>
  apiRequest<{ opened: string[]; skipped: string[] }>('POST', '/api/vault/opened', { body: { entries } });

export const finishTurningOff = () => apiRequest<void>('DELETE', '/api/vault');
