import { z } from 'zod';
import type { DeletionSummary } from './admin';
import { messages } from './messages';

/** DELETE /api/auth/user: the typed confirmation, exactly DELETE. */
export const deleteAccountBodySchema = z.object({
  /** What the user typed in the confirmation dialog. */
  confirmationText: z.literal('DELETE', { error: messages.accountDeletion.confirmationRequired }),
});

export interface DeleteAccountResponse {
  success: true;
  summary: DeletionSummary;
}
