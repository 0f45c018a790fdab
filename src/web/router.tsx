import { createBrowserRouter, type RouteObject } from 'react-router';
import { RedirectIfSignedIn, RequireAuth } from './features/auth/guards';
import { AuthCallbackPage } from './pages/auth-callback/AuthCallbackPage';
import { DevMailPage } from './pages/dev-mail/DevMailPage';
import { DevPhonePage } from './pages/dev-phone/DevPhonePage';
import { JournalPage } from './pages/journal/JournalPage';
import { SupportPage, TermsPage } from './pages/legal/LegalPages';
import { LandingPage } from './pages/landing/LandingPage';
import { NotFoundPage } from './pages/not-found/NotFoundPage';
import { PhoneVerificationPage } from './pages/phone-verification/PhoneVerificationPage';
import { PrivacyPage } from './pages/privacy/PrivacyPage';
import { ResetPasswordPage } from './pages/reset-password/ResetPasswordPage';
import { RouteErrorPage } from './pages/route-error/RouteErrorPage';
import { SignInPage } from './pages/sign-in/SignInPage';
import { SignUpPage } from './pages/sign-up/SignUpPage';

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/support', element: <SupportPage /> },
      { path: '/sign-in', element: <RedirectIfSignedIn><SignInPage /></RedirectIfSignedIn> },
      { path: '/sign-up', element: <RedirectIfSignedIn><SignUpPage /></RedirectIfSignedIn> },
      { path: '/phone-verification', element: <RedirectIfSignedIn><PhoneVerificationPage /></RedirectIfSignedIn> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/auth/callback', element: <AuthCallbackPage /> },
      { path: '/journal', element: <RequireAuth><JournalPage /></RequireAuth> },
      { path: '/dev/phone', element: <DevPhonePage /> },
      { path: '/dev/mail', element: <DevMailPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
