/**
 * What sign-up hands to the phone-verification page: carried in router state and mirrored in
 * sessionStorage so a reload of /phone-verification keeps working.
 */
export interface PendingVerification {
  /** E.164. */
  phone: string;
  /** As typed at sign-up, so "Back to sign up" can fill it in again. */
  email?: string;
  verificationToken: string;
  /** Where the server says to go once signed in. */
  redirectTo?: string;
}

const STORAGE_KEY = 'jotline.pendingVerification';

function isPending(value: unknown): value is PendingVerification {
  const v = value as Partial<PendingVerification> | null;
  return !!v && typeof v.phone === 'string' && !!v.phone && typeof v.verificationToken === 'string' && !!v.verificationToken;
}

export function savePendingVerification(pending: PendingVerification): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(pending));
  } catch {
    // Router state still carries it; only a reload would lose it.
  }
}

/** Router state first, then what this tab saved. */
export function loadPendingVerification(routerState: unknown): PendingVerification | null {
  if (isPending(routerState)) return routerState;
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    return isPending(stored) ? stored : null;
  } catch {
    return null;
  }
}

export function clearPendingVerification(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing saved.
  }
}

/** What "Back to sign up" carries to the sign-up form (never the password). */
interface SignUpDraft {
  email: string;
  /** E.164. */
  phone: string;
}

export function signUpDraftOf(pending: PendingVerification): SignUpDraft {
  return { email: pending.email ?? '', phone: pending.phone };
}

/** The draft in a /sign-up location's state, if any. */
export function readSignUpDraft(routerState: unknown): SignUpDraft | null {
  const draft = (routerState as { signUpDraft?: Partial<SignUpDraft> } | null)?.signUpDraft;
  if (!draft || typeof draft.phone !== 'string') return null;
  return { email: typeof draft.email === 'string' ? draft.email : '', phone: draft.phone };
}
