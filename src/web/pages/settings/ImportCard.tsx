import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck, FileUp } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { tooLargeToImport, uploadImport, type ImportResult } from '../../features/import/upload-import';
import { SettingsSection } from './SettingsSection';

const copy = messages.importer;

type ImportState =
  | { step: 'idle' }
  | { step: 'uploading'; fraction: number }
  | { step: 'processing' }
  | { step: 'done'; result: ImportResult }
  | { step: 'failed'; message: string };

function sizeLabel(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Settings → Import: pick an export file, upload it with a progress bar, and see what came in. */
export function ImportCard() {
  const id = useId();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<ImportState>({ step: 'idle' });
  const busy = state.step === 'uploading' || state.step === 'processing';

  // Leaving the page stops an upload in flight.
  useEffect(() => () => upload.current?.abort(), []);

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
    setState({ step: 'uploading', fraction: 0 });
    try {
      const result = await uploadImport(file, {
        signal: controller.signal,
        // Once every byte is sent, the server is reading and saving the entries.
        onProgress: (fraction) => setState(fraction >= 1 ? { step: 'processing' } : { step: 'uploading', fraction }),
      });
      setState({ step: 'done', result });
      setFile(null);
      if (input.current) input.current.value = '';
      if (result.imported > 0) await queryClient.invalidateQueries({ queryKey: ['journal'] });
    } catch (error) {
      if (controller.signal.aborted) return setState({ step: 'idle' });
      setState({ step: 'failed', message: error instanceof ApiError ? error.message : copy.failed });
    } finally {
      if (upload.current === controller) upload.current = null;
    }
  };

  const percent = state.step === 'uploading' ? Math.round(state.fraction * 100) : state.step === 'processing' ? 100 : 0;

  return (
    <SettingsSection icon={FileUp} title={copy.title} description={copy.lead}>
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
          <Button type="submit" disabled={busy || !file} loading={busy}>
            {copy.start}
          </Button>
          {state.step === 'uploading' && (
            <Button type="button" variant="ghost" onClick={() => upload.current?.abort()}>
              {copy.cancel}
            </Button>
          )}
        </div>

        <div id={`${id}-status`} className="mt-4 empty:hidden">
          {busy && (
            <div>
              <div className="mb-1.5 flex justify-between text-sm text-stone-600">
                <span>{state.step === 'processing' ? copy.processing : copy.uploading}</span>
                {state.step === 'uploading' && <span>{percent}%</span>}
              </div>
              <div
                role="progressbar"
                aria-label={copy.uploading}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                aria-valuetext={state.step === 'processing' ? copy.processing : `${percent}%`}
                className="h-2 overflow-hidden rounded-full bg-stone-200"
              >
                <div className={`h-full rounded-full bg-brand-700 transition-[width] ${state.step === 'processing' ? 'animate-pulse' : ''}`} style={{ width: `${percent}%` }} />
              </div>
            </div>
          )}
          {state.step === 'done' && (
            <div role="status" className="flex gap-2 rounded-xl border border-brand-200 bg-brand-50/60 px-4 py-3 text-sm text-ink">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-700" />
              <div>
                <p className="font-medium">{copy.result(state.result.imported, state.result.skipped)}</p>
                {state.result.photos_skipped > 0 && <p className="mt-0.5 text-stone-600">{copy.photosSkipped(state.result.photos_skipped)}</p>}
                {state.result.imported > 0 && (
                  <Link to="/journal" className="mt-1 inline-block font-medium text-brand-700 underline-offset-2 hover:underline">
                    {copy.openJournal}
                  </Link>
                )}
              </div>
            </div>
          )}
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
