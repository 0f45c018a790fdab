import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/ui/Spinner';
import { journalCopy } from './copy';

/** The unlock screen of a locked Vault journal, loaded only for one. */
const VaultLocked = lazy(() => import('../vault/journal/VaultLocked').then((module) => ({ default: module.VaultLocked })));

export function VaultLockedPanel() {
  return (
    <Suspense fallback={<Spinner className="mx-auto my-16 size-7 text-brand-700" label={journalCopy.loading} />}>
      <VaultLocked />
    </Suspense>
  );
}
