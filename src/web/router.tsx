import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { loadAppProviders } from './app-shell/app-providers';
import { RootLayout } from './app-shell/RootLayout';
import { FullPageSpinner } from './features/auth/FullPageSpinner';
import { RedirectIfSignedIn, RequireAuth } from './features/auth/guards';
import { authTabRedirect } from './pages/auth-tab/auth-tab-redirect';
import { RouteErrorPage } from './pages/route-error/RouteErrorPage';

type Guard = (props: { children: ReactNode }) => ReactNode;
/** A guard, or one loaded with its page (so what it imports stays out of the main bundle). */
type GuardSource = Guard | { load: () => Promise<Guard> };

/** Admin pages: its queries pull in the admin schemas (zod), which the public pages never need. */
const RequireAdmin: GuardSource = { load: () => import('./features/admin/RequireAdmin').then((m) => m.RequireAdmin) };

/**
 * A public page (landing, privacy, legal, 404). Opened from outside, the server sends its pre-rendered
 * HTML without the app; inside the app (after signing out, a footer link) it loads as its own chunk.
 */
function publicPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const Page = pick(await load());
      return { element: <Page /> };
    },
  };
}

/**
 * A route whose page loads as its own chunk, with the app's providers (TanStack Query, the session,
 * toasts). main.tsx renders once the first page's chunk is in, so a pre-rendered page (sign-up) is
 * replaced without a blank frame.
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType, guard?: GuardSource): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const [module, Wrap] = await Promise.all([
        load(),
        guard && 'load' in guard ? guard.load() : guard,
        loadAppProviders(),
      ]);
      const Page = pick(module);
      return { element: Wrap ? <Wrap><Page /></Wrap> : <Page /> };
    },
  };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    // Shown only if the app renders before the first page's code has loaded (instead of nothing, and a warning).
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { path: '/', ...publicPage(() => import('./pages/landing/LandingPage'), (m) => m.LandingPage) },
      { path: '/privacy', ...publicPage(() => import('./pages/privacy/PrivacyPage'), (m) => m.PrivacyPage) },
      { path: '/terms', ...publicPage(() => import('./pages/legal/LegalPages'), (m) => m.TermsPage) },
      { path: '/support', ...publicPage(() => import('./pages/legal/LegalPages'), (m) => m.SupportPage) },
      { path: '/sign-in', ...lazyPage(() => import('./pages/sign-in/SignInPage'), (m) => m.SignInPage, RedirectIfSignedIn) },
      { path: '/sign-up', ...lazyPage(() => import('./pages/sign-up/SignUpPage'), (m) => m.SignUpPage, RedirectIfSignedIn) },
      {
        path: '/phone-verification',
        ...lazyPage(() => import('./pages/phone-verification/PhoneVerificationPage'), (m) => m.PhoneVerificationPage, RedirectIfSignedIn),
      },
      { path: '/reset-password', ...lazyPage(() => import('./pages/reset-password/ResetPasswordPage'), (m) => m.ResetPasswordPage) },
      { path: '/auth', loader: authTabRedirect },
      { path: '/auth/callback', ...lazyPage(() => import('./pages/auth-callback/AuthCallbackPage'), (m) => m.AuthCallbackPage) },
      { path: '/journal', ...lazyPage(() => import('./pages/journal/JournalPage'), (m) => m.JournalPage, RequireAuth) },
      { path: '/settings', ...lazyPage(() => import('./pages/settings/SettingsPage'), (m) => m.SettingsPage, RequireAuth) },
      { path: '/subscribe', ...lazyPage(() => import('./pages/subscribe/SubscribePage'), (m) => m.SubscribePage, RequireAuth) },
      { path: '/trial-expired', ...lazyPage(() => import('./pages/trial-expired/TrialExpiredPage'), (m) => m.TrialExpiredPage, RequireAuth) },
      { path: '/dev/checkout', ...lazyPage(() => import('./pages/dev-checkout/DevCheckoutPage'), (m) => m.DevCheckoutPage) },
      { path: '/dev/billing-portal', ...lazyPage(() => import('./pages/dev-billing-portal/DevBillingPortalPage'), (m) => m.DevBillingPortalPage) },
      { path: '/admin/login', ...lazyPage(() => import('./pages/admin'), (m) => m.AdminLoginPage) },
      { path: '/admin/dashboard', ...lazyPage(() => import('./pages/admin'), (m) => m.AdminDashboardPage, RequireAdmin) },
      { path: '/admin/dashboard/subscribers', ...lazyPage(() => import('./pages/admin'), (m) => m.AdminSubscribersPage, RequireAdmin) },
      { path: '/admin/dashboard/trial-users', ...lazyPage(() => import('./pages/admin'), (m) => m.AdminTrialUsersPage, RequireAdmin) },
      { path: '/admin/sms-testing', ...lazyPage(() => import('./pages/admin'), (m) => m.AdminSmsTestingPage, RequireAdmin) },
      { path: '/admin/user-management', ...lazyPage(() => import('./pages/admin'), (m) => m.AdminUserManagementPage, RequireAdmin) },
      { path: '/dev/phone', ...lazyPage(() => import('./pages/dev-phone/DevPhonePage'), (m) => m.DevPhonePage) },
      { path: '/dev/mail', ...lazyPage(() => import('./pages/dev-mail/DevMailPage'), (m) => m.DevMailPage) },
      { path: '*', ...publicPage(() => import('./pages/not-found/NotFoundPage'), (m) => m.NotFoundPage) },
    ],
  },
];

export const router = createBrowserRouter(routes);
