import { Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import type { EntryRecording } from '../../../shared/journal';
import { ApiError } from '../../api/errors';
import { cn } from '../../components/ui/cn';
import { lazyDialog } from '../../components/ui/lazy-dialog';
import { journalCopy } from '../journal/copy';
import { toastFailure } from '../journal/feedback';
import { useRecordingSrc } from './recording-src';
import { useTranscribeAgain } from './recordings-api';
import { voiceCopy } from './voice-copy';

const DeleteRecordingDialog = lazyDialog(() => import('./DeleteRecordingDialog').then((m) => m.DeleteRecordingDialog), {
  isOpen: (p) => p.open,
  close: (p) => p.onOpenChange(false),
  onLoadError: (error) => toastFailure(error, journalCopy.loadError),
});

const smallButton = 'rounded text-sm font-medium text-brand-700 underline-offset-4 hover:underline disabled:opacity-60';

/**
 * One recording in an entry: a plain audio player with its length, how its transcription stands
 * (transcribing, the transcript, or not transcribed with Transcribe again), and Delete.
 */
export function RecordingPlayer({ entryId, recording }: { entryId: string; recording: EntryRecording }) {
  const labelId = useId();
  const label = voiceCopy.voiceNoteLabel(recording.duration_seconds);
  const { src, failed: unopenable } = useRecordingSrc(recording.url, recording.mime_type);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const again = useTranscribeAgain(entryId, recording.id);
  // Asked again: transcribing from now until the server's copy of the recording says otherwise.
  const [askedFor, setAskedFor] = useState<EntryRecording | null>(null);
  const status = askedFor === recording ? 'pending' : recording.transcript_status;
  const refusal = again.error ? (again.error instanceof ApiError && again.error.message ? again.error.message : voiceCopy.transcribeFailed) : null;

  const transcribeAgain = () =>
    again.mutate(undefined, {
      onSuccess: () => setAskedFor(recording),
    });

  return (
    <li className="rounded-xl border border-stone-200 bg-stone-50/60 p-3">
      <div className="flex items-center justify-between gap-2">
        <p id={labelId} className="text-sm font-medium text-stone-700">
          {label}
        </p>
        <button
          type="button"
          onClick={() => setConfirmDelete(true)}
          aria-label={`Delete ${label}`}
          className="flex size-8 items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-red-50 hover:text-red-700"
        >
          <Trash2 aria-hidden="true" className="size-4" />
        </button>
      </div>
      <audio controls preload="metadata" src={src} aria-labelledby={labelId} className="mt-2 w-full" />
      {unopenable && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {voiceCopy.sealedUnopenable}
        </p>
      )}
      <div role="status" className={cn('mt-2 text-sm text-stone-600', status === 'done' && 'sr-only')}>
        {status === 'pending' ? voiceCopy.transcribing : status === 'failed' ? voiceCopy.notTranscribed : ''}
      </div>
      {status === 'failed' && (
        <button type="button" onClick={transcribeAgain} disabled={again.isPending} className={cn(smallButton, 'mt-1')}>
          {voiceCopy.transcribeAgain}
        </button>
      )}
      {refusal && status === 'failed' && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {refusal}
        </p>
      )}
      {status === 'done' && recording.transcript && (
        <details className="mt-1 text-sm text-stone-700">
          <summary className="cursor-pointer font-medium text-brand-700">{voiceCopy.transcript}</summary>
          <p className="mt-1 whitespace-pre-wrap">{recording.transcript}</p>
        </details>
      )}
      <DeleteRecordingDialog entryId={entryId} recordingId={recording.id} label={label} open={confirmDelete} onOpenChange={setConfirmDelete} />
    </li>
  );
}

/** An entry's recordings, oldest first, as the server sends them. */
export function EntryRecordings({ entryId, recordings }: { entryId: string; recordings: readonly EntryRecording[] }) {
  if (recordings.length === 0) return null;
  return (
    <ul aria-label="Voice notes" className="mt-5 space-y-2">
      {recordings.map((recording) => (
        <RecordingPlayer key={recording.id} entryId={entryId} recording={recording} />
      ))}
    </ul>
  );
}
