import { Lock } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/ui/Spinner';
import { journalCopy } from './copy';

/** The unlock screen of a locked Vault journal, loaded only for one. */
const VaultLocked = lazy(() => import('../vault/journal/VaultLocked').then((module) => ({ default: module.VaultLocked })));

const VaultUnlock = lazy(() => import('../vault/journal/VaultLocked').then((module) => ({ default: module.VaultUnlock })));

/** Where something needs the locked vault (the export): why, and the unlock, in place. */
export function VaultUnlockHere({ reason }: { reason: string }) {
  return (
    <div className="space-y-4">
      <p className="flex items-start gap-2 text-sm leading-6 text-stone-700">
        <Lock aria-hidden="true" className="mt-1 size-4 shrink-0 text-brand-700" />
        {reason}
      </p>
      <Suspense fallback={<Spinner className="mx-auto my-4 size-6 text-brand-700" label={journalCopy.loading} />}>
        <VaultUnlock />
      </Suspense>
    </div>
  );
}

export function VaultLockedPanel() {
  return (
    <Suspense fallback={<Spinner className="mx-auto my-16 size-7 text-brand-700" label={journalCopy.loading} />}>
      <VaultLocked />
    </Suspense>
  );
}
