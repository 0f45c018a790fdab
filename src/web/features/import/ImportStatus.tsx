import { CircleAlert, CircleCheck } from 'lucide-react';
import { Link } from 'react-router';
import type { ImportProgress } from '../../../shared/import';
import { messages } from '../../../shared/messages';

const copy = messages.importer;

/** A labelled bar; `percent` null draws it busy (the server is still counting). */
export function ProgressBar({ label, percent, detail }: { label: string; percent: number | null; detail?: string }) {
  return (
    <div>
      <div className="mb-1.5 flex justify-between text-sm text-stone-600">
        <span>{label}</span>
        {detail && <span>{detail}</span>}
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={detail ?? label}
        className="h-2 overflow-hidden rounded-full bg-stone-200"
      >
        <div className={`h-full rounded-full bg-brand-700 transition-[width] ${percent === null ? 'animate-pulse' : ''}`} style={{ width: `${percent ?? 100}%` }} />
      </div>
    </div>
  );
}

/** An import under way, or what it did: the bar, then the summary in words, or why it failed. */
export function ImportStatus({ progress }: { progress: ImportProgress }) {
  if (progress.status === 'queued') return <ProgressBar label={copy.queued} percent={null} />;
  if (progress.status === 'running') {
    const done = progress.imported + progress.skipped;
    const percent = progress.total ? Math.min(100, Math.round((done / progress.total) * 100)) : null;
    return <ProgressBar label={progress.total ? copy.progress(done, progress.total) : copy.processing} percent={percent} detail={percent === null ? undefined : `${percent}%`} />;
  }
  if (progress.status === 'failed') {
    return (
      <div role="alert" className="flex gap-2 rounded-xl border border-red-200 bg-red-50/60 px-4 py-3 text-sm text-red-800">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <div>
          <p>{progress.error ?? copy.failed}</p>
          {progress.imported > 0 && <p className="mt-0.5">{copy.done(progress.imported, progress.total)}</p>}
        </div>
      </div>
    );
  }
  if (progress.total === 0) {
    // A file read whole that holds nothing (an empty jrnl journal): not a success to celebrate.
    return (
      <div role="status" className="flex gap-2 rounded-xl border border-amber-200 bg-amber-50/60 px-4 py-3 text-sm text-amber-900">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <p>{copy.noEntries}</p>
      </div>
    );
  }
  return (
    <div role="status" className="flex gap-2 rounded-xl border border-brand-200 bg-brand-50/60 px-4 py-3 text-sm text-ink">
      <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-700" />
      <div>
        <p className="font-medium">{copy.done(progress.imported, progress.total)}</p>
        {progress.photos_imported > 0 && <p className="mt-0.5 text-stone-600">{copy.photosImported(progress.photos_imported)}</p>}
        {progress.reasons.length > 0 && (
          <ul className="mt-1.5 space-y-1 text-stone-700">
            {progress.reasons.map((item) => (
              <li key={item.reason}>
                {copy.reasons[item.reason](item.count)}
                {item.examples.length > 0 && (
                  <span className="block text-xs text-stone-500">
                    {[...item.examples, ...(item.count > item.examples.length ? [copy.andMore(item.count - item.examples.length)] : [])].join(' · ')}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
        {progress.imported > 0 && (
          <Link to="/journal" className="mt-1 inline-block font-medium text-brand-700 underline-offset-2 hover:underline">
            {copy.openJournal}
          </Link>
        )}
      </div>
    </div>
  );
}
