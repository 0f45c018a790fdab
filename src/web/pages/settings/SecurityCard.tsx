import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PASSKEY_NAME_MAX, type PasskeySummary } from '../../../shared/second-factor';
import { ApiError } from '../../api/errors';
import {
  addPasskey,
  disableTotp,
  endSession,
  listPasskeys,
  listSessions,
  removePasskey,
  renamePasskey,
  secondFactors,
  securityLog,
} from '../../api/second-factor';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Field } from '../../components/ui/Field';
import { Input } from '../../components/ui/Input';
import { PasswordInput } from '../../components/ui/PasswordInput';
import { securityCopy as copy, eventWords } from '../../features/security/copy';
import { TotpSetupFlow } from '../../features/security/TotpSetup';
import { SettingsSection } from './SettingsSection';

const keys = {
  passkeys: ['security', 'passkeys'] as const,
  sessions: ['security', 'sessions'] as const,
  log: ['security', 'log'] as const,
  user: ['security', 'user'] as const,
};

const failureOf = (error: unknown) => (error instanceof ApiError && error.status < 500 ? error.message : error instanceof DOMException ? copy.passkeyCancelled : copy.failed);

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings → Security: passkeys, two-step verification, sessions and the security log. */
export function SecurityCard() {
  return (
    <SettingsSection icon={ShieldCheck} title={copy.title} description={copy.description}>
      <div className="divide-y divide-stone-200 px-5 pt-2 pb-5 sm:px-7 sm:pb-6">
        <PasskeysPart />
        <TotpPart />
        <SessionsPart />
        <LogPart />
      </div>
    </SettingsSection>
  );
}

function Part(props: { title: string; lead?: string; children: React.ReactNode }) {
  return (
    <div className="py-4">
      <h3 className="font-medium text-ink">{props.title}</h3>
      {props.lead && <p className="mt-0.5 text-sm text-stone-600">{props.lead}</p>}
      <div className="mt-3">{props.children}</div>
    </div>
  );
}

function PasskeysPart() {
  const queryClient = useQueryClient();
  const passkeys = useQuery({ queryKey: keys.passkeys, queryFn: listPasskeys });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.passkeys }), queryClient.invalidateQueries({ queryKey: keys.log })]);
  const add = useMutation({
    mutationFn: () => addPasskey(name.trim()),
    onSuccess: async () => {
      setName('');
      setError(null);
      toast.success(copy.passkeyAdded);
      await refresh();
    },
    onError: (failure) => setError(failureOf(failure)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Please name this passkey.');
    add.mutate();
  }

  return (
    <Part title={copy.passkeysTitle} lead={copy.passkeysLead}>
      {passkeys.data && passkeys.data.length === 0 && <p className="text-sm text-stone-500">{copy.noPasskeys}</p>}
      <ul aria-label={copy.passkeysTitle} className="space-y-2">
        {passkeys.data?.map((passkey) => <PasskeyRow key={passkey.id} passkey={passkey} onChanged={refresh} />)}
      </ul>
      <form noValidate onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3">
        <div className="min-w-48 flex-1">
          <Field id="passkey-name" label={copy.passkeyName}>
            <Input id="passkey-name" maxLength={PASSKEY_NAME_MAX} placeholder={copy.passkeyNamePlaceholder} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
        </div>
        <Button type="submit" variant="secondary" loading={add.isPending}>
          <KeyRound aria-hidden="true" className="size-4" />
          {copy.addPasskey}
        </Button>
      </form>
      {error && <Alert tone="error" className="mt-3">{error}</Alert>}
    </Part>
  );
}

function PasskeyRow(props: { passkey: PasskeySummary; onChanged(): Promise<unknown> }) {
  const { passkey } = props;
  const [mode, setMode] = useState<'view' | 'rename' | 'remove'>('view');
  const [name, setName] = useState(passkey.name);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(work: () => Promise<unknown>, done?: string) {
    setBusy(true);
    setError(null);
    try {
      await work();
      if (done) toast.success(done);
      setMode('view');
      setPassword('');
      await props.onChanged();
    } catch (failure) {
      setError(failureOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li aria-label={passkey.name} className="rounded-lg border border-stone-200 p-3">
      {mode === 'rename' ? (
        <form
          noValidate
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => renamePasskey(passkey.id, name.trim()));
          }}
        >
          <div className="min-w-40 flex-1">
            <Field id={`rename-${passkey.id}`} label={copy.passkeyName}>
              <Input id={`rename-${passkey.id}`} maxLength={PASSKEY_NAME_MAX} value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
          </div>
          <Button type="submit" size="sm" loading={busy}>
            {copy.save}
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setMode('view')}>
            {copy.cancel}
          </Button>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <p className="font-medium text-ink">{passkey.name}</p>
            <p className="text-xs text-stone-500">
              {copy.added} {when(passkey.created_at)} · {passkey.last_used_at ? `${copy.lastUsed} ${when(passkey.last_used_at)}` : copy.neverUsed}
            </p>
          </div>
          <div className="flex gap-2">
            <Button size="sm" variant="ghost" onClick={() => setMode('rename')}>
              {copy.rename}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setMode('remove')}>
              {copy.remove}
            </Button>
          </div>
        </div>
      )}
      {mode === 'remove' && (
        <form
          noValidate
          className="mt-3 space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => removePasskey(passkey.id, password), copy.passkeyRemoved);
          }}
        >
          <p className="text-sm text-stone-600">{copy.removePasskeyLead}</p>
          <Field id={`remove-${passkey.id}`} label={copy.password}>
            <PasswordInput id={`remove-${passkey.id}`} autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
          <div className="flex gap-2">
            <Button type="submit" size="sm" variant="danger" loading={busy}>
              {copy.removeConfirm}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setMode('view')}>
              {copy.cancel}
            </Button>
          </div>
        </form>
      )}
      {error && <Alert tone="error" className="mt-2">{error}</Alert>}
    </li>
  );
}

/** Whether TOTP is on (GET /api/auth/user lists the second factors). */
function useTotpOn() {
  const user = useQuery({ queryKey: keys.user, queryFn: secondFactors });
  return { on: !!user.data?.includes('totp'), loading: user.isPending };
}

function TotpPart() {
  const queryClient = useQueryClient();
  const { on, loading } = useTotpOn();
  const [settingUp, setSettingUp] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.log }), queryClient.invalidateQueries({ queryKey: keys.user })]);

  async function turnOff(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await disableTotp(code.replace(/\s+/g, ''));
      setCode('');
      toast.success(copy.totpTurnedOff);
      await refresh();
    } catch (failure) {
      setError(failureOf(failure));
    } finally {
      setBusy(false);
    }
  }

  if (loading) return <Part title={copy.totpTitle} lead={copy.totpLead}>{null}</Part>;
  return (
    <Part title={copy.totpTitle} lead={copy.totpLead}>
      {settingUp ? (
        <TotpSetupFlow
          onCancel={() => setSettingUp(false)}
          onDone={() => {
            setSettingUp(false);
            void refresh();
          }}
        />
      ) : on ? (
        <form noValidate onSubmit={turnOff} className="space-y-3">
          <p className="text-sm font-medium text-brand-800">{copy.totpOn}</p>
          <p className="text-sm text-stone-600">{copy.turnOffLead}</p>
          <div className="flex flex-wrap items-end gap-3">
            <Field id="totp-off-code" label={copy.authCode}>
              <Input id="totp-off-code" inputMode="numeric" autoComplete="one-time-code" maxLength={8} value={code} onChange={(e) => setCode(e.target.value)} />
            </Field>
            <Button type="submit" variant="secondary" loading={busy}>
              {copy.turnOff}
            </Button>
          </div>
          {error && <Alert tone="error">{error}</Alert>}
        </form>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-stone-600">{copy.totpOff}</p>
          <Button variant="secondary" onClick={() => setSettingUp(true)}>
            {copy.setUpTotp}
          </Button>
        </div>
      )}
    </Part>
  );
}

function SessionsPart() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: keys.sessions, queryFn: listSessions });
  const [busy, setBusy] = useState(false);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.sessions }), queryClient.invalidateQueries({ queryKey: keys.log })]);

  async function end(ids: string[], done: string) {
    setBusy(true);
    try {
      for (const id of ids) await endSession(id);
      toast.success(done);
    } catch (failure) {
      toast.error(failureOf(failure));
    } finally {
      setBusy(false);
      await refresh();
    }
  }

  const others = sessions.data?.filter((s) => !s.current) ?? [];
  return (
    <Part title={copy.sessionsTitle}>
      <ul aria-label={copy.sessionsTitle} className="space-y-2">
        {sessions.data?.map((session) => (
          <li key={session.id} aria-label={session.device ?? copy.unknownDevice} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-stone-200 p-3">
            <div>
              <p className="font-medium text-ink">
                {session.device ?? copy.unknownDevice}
                {session.current && <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-800">{copy.thisDevice}</span>}
              </p>
              <p className="text-xs text-stone-500">
                {copy.signedIn} {when(session.created_at)} · {copy.lastActive} {when(session.last_seen_at)}
              </p>
            </div>
            {!session.current && (
              <Button size="sm" variant="secondary" disabled={busy} onClick={() => void end([session.id], copy.sessionEnded)}>
                {copy.endSession}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <Button className="mt-3" variant="secondary" loading={busy} onClick={() => void end(others.map((s) => s.id), copy.othersSignedOut)}>
          {copy.signOutOthers}
        </Button>
      )}
    </Part>
  );
}

function LogPart() {
  const log = useQuery({ queryKey: keys.log, queryFn: securityLog });
  return (
    <Part title={copy.logTitle} lead={copy.logLead}>
      {log.data && log.data.length === 0 && <p className="text-sm text-stone-500">{copy.noEvents}</p>}
      <ol aria-label={copy.logTitle} className="max-h-72 space-y-1 overflow-y-auto text-sm">
        {log.data?.map((event, i) => (
          <li key={`${event.at}-${i}`} className="flex flex-wrap justify-between gap-x-3 border-b border-stone-100 py-1.5">
            <span className="text-ink">{eventWords(event.kind, event.method)}</span>
            <span className="text-stone-500">
              {event.device ?? copy.unknownDevice} · {when(event.at)}
            </span>
          </li>
        ))}
      </ol>
    </Part>
  );
}

