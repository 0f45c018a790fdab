import type { AppContext } from '../context';
import { newId } from '../ids';

type SecuritySeverity = 'low' | 'medium' | 'high';

interface SecurityEventInput {
  /** What happened: login_failure, suspicious_input, refresh_token_reuse… */
  event_type: string;
  /** Who or what it was about: an e-mail address, a phone number. */
  identifier?: string | null;
  details?: Record<string, unknown>;
  severity: SecuritySeverity;
  user_id?: string | null;
  ip?: string | null;
}

// Secrets never reach the table, whatever a caller passes in details.
const SECRET_KEY = /pass|token|secret|authorization|cookie|hash/i;
const MAX_TEXT = 254;

function withoutSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.slice(0, MAX_TEXT);
  if (Array.isArray(value)) return depth > 3 ? '[…]' : value.slice(0, 20).map((v) => withoutSecrets(v, depth + 1));
  if (value && typeof value === 'object') {
    if (depth > 3) return '[…]';
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !SECRET_KEY.test(key))
        .map(([key, v]) => [key, withoutSecrets(v, depth + 1)]),
    );
  }
  return value;
}

/** Appends a security event (spec section 3). Details are stored as JSON, secrets removed. */
export async function recordSecurityEvent(ctx: AppContext, event: SecurityEventInput): Promise<void> {
  await ctx.db
    .insertInto('security_events')
    .values({
      id: newId(),
      event_type: event.event_type,
      identifier: event.identifier ? event.identifier.slice(0, MAX_TEXT) : null,
      details: event.details ? JSON.stringify(withoutSecrets(event.details)) : null,
      severity: event.severity,
      user_id: event.user_id ?? null,
      ip: event.ip ?? null,
      created_at: ctx.clock.now().toISOString(),
    })
    .execute();
}
