import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';

export interface Notice {
  title: string;
  description: string;
}

/** Spec 8 (sign-up): the toast for an error from the sign-up call. */
export function signUpFailureNotice(error: unknown): Notice {
  if (!(error instanceof ApiError)) {
    return { title: messages.signUp.unexpectedTitle, description: messages.signUp.unexpected };
  }
  const text = error.message.toLowerCase();
  if (error.status === 429 || text.includes('rate limit') || text.includes('too many')) {
    return { title: messages.signUp.tooManyAttemptsTitle, description: messages.signUp.tooManyAttempts };
  }
  if (error.message.includes(messages.signUp.alreadyRegistered)) {
    return { title: messages.signUp.accountExistsTitle, description: messages.signUp.accountExists };
  }
  return { title: messages.signUp.failedTitle, description: error.message || messages.signUp.failed };
}
