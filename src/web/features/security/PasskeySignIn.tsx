import { KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/errors';
import { autofillSupported, passkeysSupported, signInWithPasskey } from '../../api/second-factor';
import type { Session } from '../../api/types';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { securityCopy as copy } from './copy';

/**
 * "Sign in with a passkey", and, where the browser offers it, the passkey in the e-mail field's
 * autofill (conditional mediation; the field's autocomplete names "webauthn").
 */
export function PasskeySignIn(props: { onSession(session: Session): void }) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { onSession } = props;

  useEffect(() => {
    let active = true;
    void passkeysSupported().then(async (yes) => {
      if (!active || !yes) return;
      setSupported(true);
      if (!(await autofillSupported())) return;
      // Waits for the person to pick a passkey from the autofill; a button press cancels it.
      signInWithPasskey({ autofill: true }).then(
        (session) => active && onSession(session),
        () => undefined,
      );
    });
    return () => {
      active = false;
    };
  }, [onSession]);

  if (!supported) return null;
  return (
    <div className="space-y-3">
      {error && <Alert tone="error">{error}</Alert>}
      <Button
        variant="secondary"
        size="lg"
        className="w-full"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            onSession(await signInWithPasskey());
          } catch (failure) {
            setError(failure instanceof ApiError && failure.status < 500 ? failure.message : failure instanceof DOMException ? copy.passkeyCancelled : copy.failed);
          } finally {
            setBusy(false);
          }
        }}
      >
        <KeyRound aria-hidden="true" className="size-4" />
        {copy.signInWithPasskey}
      </Button>
    </div>
  );
}
