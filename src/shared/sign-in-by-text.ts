import { z } from 'zod';
import { signUpSchema } from './auth-schemas';

/** POST /api/auth/link: text a one-time sign-in link to this phone, if it is an account's verified phone. */
export const signInLinkRequestSchema = z.object({
  /** Any common US format; becomes +1 and ten digits. */
  phoneNumber: signUpSchema.shape.phoneNumber,
});

/** The answer, the same whether or not the number has an account (no enumeration). */
export type SignInLinkResult = Record<string, never>;
