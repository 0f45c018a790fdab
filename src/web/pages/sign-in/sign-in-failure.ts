import { messages } from '../../../shared/messages';
import { ApiError, NetworkError } from '../../api/errors';

/** Spec 8: what the 'Sign in failed' toast says for an error. */
export function signInFailureMessage(error: unknown): string {
  if (error instanceof NetworkError) return messages.signIn.connection;
  if (error instanceof ApiError && error.status === 429) return messages.signIn.rateLimited;
  if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') return messages.signIn.invalidCredentials;
  const text = error instanceof Error ? error.message.toLowerCase() : '';
  if (text.includes('rate limit') || text.includes('too many')) return messages.signIn.rateLimited;
  if (text.includes('network') || text.includes('connection')) return messages.signIn.connection;
  if (text.includes('email')) return messages.signIn.invalidEmail;
  return messages.signIn.invalidCredentials;
}
