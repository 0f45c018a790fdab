import { isSuspiciousInput } from '../../shared/auth-schemas';
import type { AppContext } from '../context';
import { invalidInput } from '../errors';
import { recordSecurityEvent } from './events';

interface ScreenOptions {
  /** The 400 answer's message (the spec words it per screen). */
  message: string;
  /** Where the input arrived: signup, signin… */
  action: string;
  /** The e-mail address or other identifier to file the event under. */
  identifier?: string | null;
  ip?: string | null;
}

/**
 * Refuses input carrying script fragments (spec section 5) and files a high-severity security
 * event naming the fields, never their values.
 */
export async function refuseSuspiciousInput(ctx: AppContext, fields: Record<string, unknown>, options: ScreenOptions): Promise<void> {
  const flagged = Object.entries(fields)
    .filter(([, value]) => isSuspiciousInput(value))
    .map(([name]) => name);
  if (!flagged.length) return;
  await recordSecurityEvent(ctx, {
    event_type: 'suspicious_input',
    identifier: options.identifier ?? null,
    details: { action: options.action, fields: flagged },
    severity: 'high',
    ip: options.ip ?? null,
  });
  throw invalidInput(options.message);
}
