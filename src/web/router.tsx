import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAdmin } from './features/admin/RequireAdmin';
import { RedirectIfSignedIn, RequireAuth } from './features/auth/guards';
import { authTabRedirect } from './pages/auth-tab/auth-tab-redirect';
import { SupportPage, TermsPage } from './pages/legal/LegalPages';
import { LandingPage } from './pages/landing/LandingPage';
import { NotFoundPage } from './pages/not-found/NotFoundPage';
import { PrivacyPage } from './pages/privacy/PrivacyPage';
import { RouteErrorPage } from './pages/route-error/RouteErrorPage';

type Guard = (props: { children: ReactNode }) => ReactNode;

/**
 * A route whose page loads as its own chunk. The public pages stay in the main bundle: they are
 * pre-rendered, and the first render must replace that HTML without a blank frame.
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType, guard?: Guard): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const Page = pick(await load());
      const Wrap = guard;
      return { element: Wrap ? <Wrap><Page /></Wrap> : <Page /> };
    },
  };
}

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/support', element: <SupportPage /> },
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
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
