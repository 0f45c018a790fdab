/**
 * The spec's privacy page once linked to /auth?tab=signin and /auth?tab=signup. Those addresses are
 * kept working: /auth goes to the sign-up page for tab=signup and to the sign-in page otherwise.
 */
export function authTabTarget(tab: string | null | undefined): '/sign-in' | '/sign-up' {
  return tab === 'signup' ? '/sign-up' : '/sign-in';
}
