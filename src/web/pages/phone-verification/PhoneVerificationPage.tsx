import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { PageHead } from '../../seo/PageHead';
import { clearPendingVerification, loadPendingVerification, signUpDraftOf, type PendingVerification } from '../../features/auth/pending-verification';
import { isSafeAppPath } from '../../features/auth/redirect';
import { VerificationPanel } from './VerificationPanel';
import { usePhoneVerification } from './usePhoneVerification';

/** Where the auth link points inside this app ('/auth/callback?token=…'), whatever host it names. */
function appPathOfAuthLink(authLink: string): string | null {
  try {
    const url = new URL(authLink, window.location.origin);
    return url.pathname === '/auth/callback' ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

export function PhoneVerificationPage() {
  const location = useLocation();
  const [pending] = useState(() => loadPendingVerification(location.state));
  if (!pending) return <Navigate to="/sign-up" replace />;
  return <PhoneVerification pending={pending} />;
}

function PhoneVerification({ pending }: { pending: PendingVerification }) {
  const navigate = useNavigate();
  const { state, checkNow, retry } = usePhoneVerification({
    verificationToken: pending.verificationToken,
    onVerified(authLink) {
      clearPendingVerification();
      const path = appPathOfAuthLink(authLink);
      if (!path) return window.location.assign(authLink);
      const redirectTo = isSafeAppPath(pending.redirectTo) ? pending.redirectTo : undefined;
      navigate(path, { replace: true, state: { redirectTo } });
    },
    onTimeout() {
      clearPendingVerification();
      navigate('/sign-up?timeout=true', { replace: true, state: { signUpDraft: signUpDraftOf(pending) } });
    },
  });

  // The e-mail and phone go back into the form, so only the password is typed again.
  const backToSignUp = () => {
    clearPendingVerification();
    navigate('/sign-up', { state: { signUpDraft: signUpDraftOf(pending) } });
  };

  return (
    <>
      <PageHead title="Check your phone · Jotline" robots="noindex" />
      <VerificationPanel phone={pending.phone} state={state} onCheckAgain={checkNow} onRetry={retry} onBackToSignUp={backToSignUp} />
    </>
  );
}
