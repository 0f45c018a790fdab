import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { subscribeToVaultKeys, vaultKeys } from './key-store';
import { fetchVault, vaultQueryKey } from './vault-api';

/** GET /api/vault. */
export function useVault() {
  return useQuery({ queryKey: vaultQueryKey, queryFn: ({ signal }) => fetchVault(signal) });
}

/** The unlocked keys in this tab, or null while the vault is locked. */
export function useVaultKeys() {
  return useSyncExternalStore(subscribeToVaultKeys, vaultKeys, () => null);
}
