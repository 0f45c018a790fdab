/**
 * The web app's routes, for the server: a path outside these gets the app with a 404 status.
 * `:param` segments match one segment; a trailing `*` matches the rest.
 */
export const webRoutes = [
  '/',
  '/sign-in',
  '/sign-up',
  '/phone-verification',
  '/reset-password',
  '/auth/callback',
  '/privacy',
  '/terms',
  '/support',
  '/journal',
  '/settings',
  '/trial-expired',
  '/subscribe',
  '/admin/login',
  '/admin/dashboard',
  '/admin/dashboard/subscribers',
  '/admin/dashboard/trial-users',
  '/admin/sms-testing',
  '/admin/user-management',
  '/dev/phone',
  '/dev/mail',
  '/dev/checkout',
  '/dev/billing-portal',
] as const;

/** Pages rendered to HTML at build time, so crawlers read them without JavaScript. */
export const prerenderedRoutes = ['/', '/privacy', '/terms', '/support', '/sign-up'] as const;

/** The pre-rendered 404 page, served (with a 404 status) for paths outside webRoutes. */
export const NOT_FOUND_PAGE_FILE = 'prerendered/404.html';

export function isWebRoute(path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return (webRoutes as readonly string[]).includes(clean);
}

/** The file under dist/web that holds a pre-rendered route ('/' → 'prerendered/index.html'). */
export function prerenderedFile(path: string): string | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (!(prerenderedRoutes as readonly string[]).includes(clean)) return undefined;
  return `prerendered/${clean === '/' ? 'index' : clean.slice(1)}.html`;
}
