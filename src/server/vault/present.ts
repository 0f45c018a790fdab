import type { VaultView, WrappedKeys } from '../../shared/vault';
import type { Db } from '../db/database';
import { entryCounts, type VaultRow } from './repo';

/** The vault as GET /api/vault shows it, with how much of the journal is sealed. */
export async function presentVault(db: Db, userId: string, vault: VaultRow | undefined): Promise<VaultView> {
  const counts = await entryCounts(db, userId);
  return {
    enabled: vault !== undefined,
    state: vault?.state ?? 'off',
    public_key: vault?.public_key ?? null,
    wrapped_keys: vault ? (JSON.parse(vault.wrapped_keys) as WrappedKeys) : null,
    sealed_entries: counts.sealed,
    total_entries: counts.total,
  };
}
