import { vaultMessages } from '../../../../shared/vault-messages';
import { ApiError } from '../../../api/errors';

/** The journal is a Vault's and its keys are not in this tab: nothing can be read until it is unlocked. */
export class VaultLockedError extends ApiError {
  constructor() {
    // 423 Locked: an answer that will not change by asking again (no retries).
    super(423, 'VAULT_LOCKED', vaultMessages.journal.locked);
    this.name = 'VaultLockedError';
  }
}
