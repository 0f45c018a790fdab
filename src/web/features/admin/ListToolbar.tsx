import { Download, RefreshCw, Search } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { Button } from '../../components/ui/Button';
import { inputClasses } from '../../components/ui/Input';
import { cn } from '../../components/ui/cn';
import { downloadCsv } from './admin-api';

/** Search by last four digits: only digits, at most four. */
export function LastFourSearch({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="relative w-full sm:w-64">
      <label htmlFor={id} className="sr-only">
        Search by last 4 digits
      </label>
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400" />
      <input
        id={id}
        type="search"
        inputMode="numeric"
        placeholder="Search by last 4 digits"
        value={value}
        maxLength={4}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, 4))}
        className={cn(inputClasses, 'h-9 py-1 pl-9 text-sm')}
      />
    </div>
  );
}

/** Refresh (says 'Data Refreshed') and Export CSV (off when there are no rows). */
export function ListActions(props: { onRefresh: () => Promise<unknown>; refreshing: boolean; csvPath: string; csvName: string; canExport: boolean; children?: ReactNode }) {
  async function refresh() {
    try {
      await props.onRefresh();
      toast.success(messages.admin.dataRefreshed);
    } catch {
      // The page shows the load error.
    }
  }
  async function exportCsv() {
    try {
      await downloadCsv(props.csvPath, props.csvName);
    } catch {
      toast.error(messages.admin.exportFailedTitle, { description: messages.admin.exportFailed });
    }
  }
  return (
    <>
      {props.children}
      <Button variant="secondary" size="sm" onClick={refresh} loading={props.refreshing}>
        {!props.refreshing && <RefreshCw aria-hidden="true" className="size-4" />}
        Refresh
      </Button>
      <Button variant="secondary" size="sm" onClick={exportCsv} disabled={!props.canExport}>
        <Download aria-hidden="true" className="size-4" />
        Export CSV
      </Button>
    </>
  );
}

export const thClasses = 'px-4 py-2.5 text-left text-xs font-medium tracking-wide text-stone-500 uppercase';
export const tdClasses = 'px-4 py-2.5 text-sm text-ink whitespace-nowrap';
