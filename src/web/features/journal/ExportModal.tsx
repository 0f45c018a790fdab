import { Download } from 'lucide-react';
import { Switch } from 'radix-ui';
import { useId, useState } from 'react';
import type { ExportFormat } from '../../../shared/journal';
import { messages } from '../../../shared/messages';
import { vaultMessages } from '../../../shared/vault-messages';
import { ApiError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Input } from '../../components/ui/Input';
import { journalCopy } from './copy';
import { downloadExport } from './export-download';
import { labelClasses } from './form-styles';
import { Modal } from './Modal';
import { useStats } from './queries';
import { useVaultJournal } from './vault-mode';
import { VaultUnlockHere } from './VaultLockedPanel';

const FORMATS: { value: ExportFormat; label: string; hint: string; wide?: boolean }[] = [
  { value: 'pdf', label: 'PDF', hint: 'A printable book of your entries' },
  { value: 'txt', label: 'Plain text', hint: 'Readable anywhere' },
  { value: 'md', label: 'Markdown', hint: 'For notes apps' },
  { value: 'json', label: 'JSON', hint: 'For programs' },
  // The backup: it imports back into Jotline (or into Day One) whole.
  { value: 'zip', label: messages.zipExport.label, hint: messages.zipExport.hint, wide: true },
];

/**
 * Spec 2: download the journal as PDF (optionally with photos), plain text, Markdown, JSON, or
 * everything as a ZIP with photos, for all days or from..to. Disabled while the journal is known
 * to be empty.
 */
export function ExportModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [exporting, setExporting] = useState(false);
  // A Vault journal is exported here, in the browser: locked, the dialog offers the unlock first.
  const locked = useVaultJournal() === 'locked';
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !exporting && onOpenChange(next)}
      title="Export your journal"
      description="Take a copy of your entries with you, any time."
    >
      {locked ? (
        <VaultUnlockHere reason={vaultMessages.journal.exportLocked} />
      ) : (
        <ExportForm exporting={exporting} setExporting={setExporting} onDone={() => onOpenChange(false)} />
      )}
    </Modal>
  );
}

function exportErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return journalCopy.exportFailed;
  if (error.status !== 429) return error.message;
  // The server names which allowance ran out (e.g. PDFs with photos) after the spec's words.
  return error.message.startsWith(messages.entries.exportRateLimited) ? error.message : messages.entries.exportRateLimited;
}

function ExportForm(props: { exporting: boolean; setExporting: (on: boolean) => void; onDone: () => void }) {
  const id = useId();
  const stats = useStats();
  const [format, setFormat] = useState<ExportFormat>('pdf');
  const [photos, setPhotos] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);

  // Unknown (still loading, or unavailable) is not "empty": the server has the last word.
  const noEntries = stats.data?.total_days === 0;
  const badRange = !!from && !!to && from > to;

  const run = async () => {
    setError(null);
    props.setExporting(true);
    try {
      await downloadExport({ format, from, to, photos });
    } catch (failure) {
      setError(exportErrorMessage(failure));
      return;
    } finally {
      props.setExporting(false);
    }
    props.onDone();
  };

  return (
    <div className="space-y-5">
      <fieldset>
        <legend className={labelClasses}>Format</legend>
        <div className="mt-2 grid grid-cols-2 gap-2">
          {FORMATS.map((option) => (
            <label key={option.value} className={cn('relative block cursor-pointer', option.wide && 'col-span-2')}>
              <input
                type="radio"
                name={`${id}-format`}
                value={option.value}
                checked={format === option.value}
                onChange={() => setFormat(option.value)}
                className="peer sr-only"
              />
              <span
                className={cn(
                  'block h-full rounded-xl border border-stone-300 bg-white px-3 py-2.5 transition-colors',
                  'peer-checked:border-brand-600 peer-checked:bg-brand-50 peer-checked:ring-1 peer-checked:ring-brand-600',
                  'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600',
                )}
              >
                <span className="block text-sm font-semibold text-ink">{option.label}</span>
                <span className="block text-xs text-stone-500">{option.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {format === 'pdf' && (
        <div className="flex items-center justify-between gap-4 rounded-xl border border-stone-200 bg-white px-4 py-3">
          <label htmlFor={`${id}-photos`} className="text-sm font-medium text-stone-700">
            Include photos
          </label>
          <Switch.Root
            id={`${id}-photos`}
            checked={photos}
            onCheckedChange={setPhotos}
            className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-stone-300 transition-colors data-[state=checked]:bg-brand-700"
          >
            <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-5.5" />
          </Switch.Root>
        </div>
      )}

      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-1.5">
          <label htmlFor={`${id}-from`} className={labelClasses}>
            From
          </label>
          <Input id={`${id}-from`} type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={`${id}-to`} className={labelClasses}>
            To
          </label>
          <Input id={`${id}-to`} type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      <p className="-mt-2 text-xs text-stone-500">Leave the dates empty to export every entry. Both days are included.</p>

      {noEntries && <Alert tone="info">{messages.entries.exportEmpty}</Alert>}
      {badRange && <Alert tone="error">The From date must be on or before the To date.</Alert>}
      {error && <Alert tone="error">{error}</Alert>}

      <div className="flex flex-col-reverse gap-2 border-t border-stone-200 pt-5 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={props.onDone} disabled={props.exporting}>
          Cancel
        </Button>
        <Button onClick={() => void run()} disabled={noEntries || badRange} loading={props.exporting}>
          {!props.exporting && <Download aria-hidden="true" className="size-4" />}
          {props.exporting ? journalCopy.exporting : 'Export'}
        </Button>
      </div>
    </div>
  );
}
