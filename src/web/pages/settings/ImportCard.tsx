import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, FileUp } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ImportProgress } from '../../../shared/import';
import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { importRunning, useImportProgress } from '../../features/import/import-progress';
import { ImportStatus, ProgressBar } from '../../features/import/ImportStatus';
import { tooLargeToImport, uploadImport } from '../../features/import/upload-import';
import { useVault, useVaultKeys } from '../../features/vault/useVault';
import { SettingsSection } from './SettingsSection';
import { useAskBeforeClosing } from './useLeaveGuard';

const copy = messages.importer;
/** The import under way in this tab, so a reload shows it again. */
const STORED_IMPORT = 'jotline.import';

type UploadState =
  | { step: 'idle' }
  | { step: 'uploading'; fraction: number }
  /** A Vault user's import, read and sealed in this tab (features/vault/import). */
  | { step: 'sealing'; progress: ImportProgress }
  | { step: 'failed'; message: string };

function sizeLabel(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const storedImport = () => (typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORED_IMPORT));

/**
 * Settings → Import: pick an export file and upload it (a bar for the upload), then follow the
 * import the server runs (a bar for the entries), and read what came in and what was left out. With
 * the vault on, the server cannot read the file: it is read and sealed here, the vault unlocked.
 */
export function ImportCard() {
  const id = useId();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<UploadState>({ step: 'idle' });
  const [importId, setImportId] = useState<string | null>(storedImport);
  const progress = useImportProgress(importId).data;
  const importing = importId !== null && importRunning(progress);
  const vault = useVault().data;
  const keys = useVaultKeys();
  const sealedJournal = vault?.state === 'sealing' || vault?.state === 'on';
  const [vaultResult, setVaultResult] = useState<ImportProgress | null>(null);
  const busy = state.step === 'uploading' || state.step === 'sealing' || importing;

  // Leaving the page stops an upload in flight (an import the server started goes on; one made here stops between entries).
  useEffect(() => () => upload.current?.abort(), []);
  // An import made here stops with the tab: the browser asks first (importing the file again goes on where it stopped).
  useAskBeforeClosing(state.step === 'sealing');

  useEffect(() => {
    if (!progress || importRunning(progress)) return;
    sessionStorage.removeItem(STORED_IMPORT);
    if (progress.imported > 0 || progress.photos_imported > 0) void queryClient.invalidateQueries({ queryKey: ['journal'] });
  }, [progress, queryClient]);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setState(chosen && tooLargeToImport(chosen) ? { step: 'failed', message: copy.tooLarge } : { step: 'idle' });
  };

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!file) {
      setState({ step: 'failed', message: copy.noFile });
      input.current?.focus();
      return;
    }
    if (tooLargeToImport(file)) return setState({ step: 'failed', message: copy.tooLarge });
    const controller = new AbortController();
    upload.current = controller;
    if (sealedJournal) return importHere(file, controller);
    setState({ step: 'uploading', fraction: 0 });
    setImportId(null);
    try {
      const started = await uploadImport(file, { signal: controller.signal, onProgress: (fraction) => setState({ step: 'uploading', fraction }) });
      sessionStorage.setItem(STORED_IMPORT, started.import_id);
      setImportId(started.import_id);
      setState({ step: 'idle' });
      setFile(null);
      if (input.current) input.current.value = '';
    } catch (error) {
      if (controller.signal.aborted) return setState({ step: 'idle' });
      setState({ step: 'failed', message: error instanceof ApiError ? error.message : copy.failed });
    } finally {
      if (upload.current === controller) upload.current = null;
    }
  };

  const importHere = async (chosen: File, controller: AbortController) => {
    setImportId(null);
    setVaultResult(null);
    const started: ImportProgress = { id: 'vault', status: 'running', total: 0, imported: 0, skipped: 0, photos_imported: 0, photos_skipped: 0, reasons: [], error: null };
    setState({ step: 'sealing', progress: started });
    try {
      // Loaded only now: the parsers and the ZIP reader stay out of everyone else's first load.
      const { runVaultImport } = await import('../../features/vault/import/run');
      const result = await runVaultImport(chosen, {
        signal: controller.signal,
        onProgress: (next) => {
          if (!controller.signal.aborted) setState({ step: 'sealing', progress: next });
        },
      });
      setVaultResult(result);
      setState({ step: 'idle' });
      if (result.status === 'done') {
        setFile(null);
        if (input.current) input.current.value = '';
      }
      if (result.imported > 0) void queryClient.invalidateQueries({ queryKey: ['journal'] });
    } catch (error) {
      if (controller.signal.aborted) return setState({ step: 'idle' });
      setState({ step: 'failed', message: error instanceof ApiError ? error.message : copy.failed });
    } finally {
      if (upload.current === controller) upload.current = null;
    }
  };

  const percent = state.step === 'uploading' ? Math.round(state.fraction * 100) : 0;
  const locked = sealedJournal && !keys;

  return (
    <SettingsSection icon={FileUp} title={copy.title} description={copy.lead}>
      {locked && (
        // Unlocked with the Vault card's own form: the keys are the tab's, for both.
        <p role="status" className="px-5 pt-4 text-sm text-stone-600 sm:px-7">
          {copy.vaultLocked}
        </p>
      )}
      <form onSubmit={(e) => void start(e)} className="px-5 pt-4 pb-5 sm:px-7 sm:pb-6" aria-busy={busy}>
        <label htmlFor={`${id}-file`} className="mb-1.5 block text-sm font-medium text-stone-700">
          {copy.fileLabel}
        </label>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept=".json,.zip,.txt,application/json,application/zip,text/plain"
          disabled={busy}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
          aria-describedby={`${id}-status`}
          className="block w-full text-sm text-stone-700 file:mr-3 file:h-10 file:cursor-pointer file:rounded-lg file:border file:border-stone-300 file:bg-white file:px-4 file:text-sm file:font-medium file:text-ink hover:file:bg-stone-50 disabled:opacity-60"
        />
        {file && <p className="mt-1.5 text-xs text-stone-500">{sizeLabel(file.size)}</p>}

        <div className="mt-4 flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={busy || !file || locked} loading={busy}>
            {copy.start}
          </Button>
          {(state.step === 'uploading' || state.step === 'sealing') && (
            <Button type="button" variant="ghost" onClick={() => upload.current?.abort()}>
              {copy.cancel}
            </Button>
          )}
        </div>

        <div id={`${id}-status`} className="mt-4 space-y-3 empty:hidden">
          {state.step === 'uploading' && <ProgressBar label={copy.uploading} percent={percent} detail={`${percent}%`} />}
          {state.step === 'sealing' && <ImportStatus progress={state.progress} />}
          {state.step !== 'uploading' && importId && progress && <ImportStatus progress={progress} />}
          {state.step === 'idle' && vaultResult && <ImportStatus progress={vaultResult} />}
          {state.step === 'failed' && (
            <div role="alert" className="flex gap-2 rounded-xl border border-red-200 bg-red-50/60 px-4 py-3 text-sm text-red-800">
              <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <p>{state.message}</p>
            </div>
          )}
        </div>
      </form>
    </SettingsSection>
  );
}
