import { CircleAlert, ShieldCheck } from 'lucide-react';
import { vaultMessages } from '../../../shared/vault-messages';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { SettingsSection } from '../../pages/settings/SettingsSection';
import { needsSealing } from './migrate';
import { Sealing } from './Sealing';
import { TurningOff } from './TurningOff';
import { useVault } from './useVault';
import { VaultOn } from './VaultOn';
import { VaultSetup } from './VaultSetup';

const copy = vaultMessages.card;

/** Settings → Vault. Its cryptography (libsodium) is fetched only when a vault is set up or unlocked. */
export function VaultCard() {
  const vault = useVault();
  return (
    <SettingsSection icon={ShieldCheck} title={copy.title} description={copy.description}>
      <div className="px-5 pt-4 pb-5 sm:px-7 sm:pb-6">
        {vault.isPending ? (
          <div className="flex items-center gap-2 text-sm text-stone-500">
            <Spinner className="size-4" label={copy.loading} />
            {copy.loading}
          </div>
        ) : !vault.data ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-800">
            <CircleAlert aria-hidden="true" className="size-4" />
            {copy.loadError}
            <Button variant="secondary" size="sm" onClick={() => void vault.refetch()}>
              {copy.retry}
            </Button>
          </div>
        ) : vault.data.state === 'off' ? (
          <VaultSetup />
        ) : needsSealing(vault.data) ? (
          <Sealing vault={vault.data} />
        ) : vault.data.state === 'on' ? (
          <VaultOn vault={vault.data} />
        ) : (
          <TurningOff vault={vault.data} />
        )}
      </div>
    </SettingsSection>
  );
}
