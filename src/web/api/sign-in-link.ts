import { apiRequest } from './client';

/**
 * POST /api/auth/link: asks for a one-time sign-in link by text. The answer is the same whether or
 * not the number has an account; only a bad number (400) or too many asks (429) fail.
 */
export async function requestSignInLinkByText(phoneNumber: string): Promise<void> {
  await apiRequest('POST', '/api/auth/link', { body: { phoneNumber }, auth: false });
}
