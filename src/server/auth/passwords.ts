import { hash, verify } from '@node-rs/argon2';
import { randomToken } from '../crypto/tokens';

// argon2id (the library's default algorithm) with OWASP's baseline cost: 19 MiB, 2 passes.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// Checked against when the e-mail is unknown, so both answers take the same time.
let standInHash: Promise<string> | undefined;

/** True when the password matches; a missing hash still costs one verification. */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    standInHash ??= hashPassword(randomToken());
    await verify(await standInHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
