import { Mic, Square, Upload } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../api/errors';
import { Alert } from '../../components/ui/Alert';
import { Button, buttonClasses } from '../../components/ui/Button';
import { canRecord, microphoneProblem, startRecording, type Recording } from './recorder';
import { useUploadRecording } from './recordings-api';
import { formatDuration, VOICE_NOTE_MAX_SECONDS, voiceCopy } from './voice-copy';

interface RecorderProps {
  entryId: string;
  open: boolean;
  /** Closed: saved, cancelled, or Escape. */
  onClose: () => void;
}

/**
 * Adds a voice note to a saved entry: recorded here (stopped by the person, or by itself at the
 * longest a voice note may be) or picked as an audio file, then uploaded at once. Loaded only when
 * opened: MediaRecorder's handling is not part of the journal's first download.
 */
export function VoiceNoteRecorder(props: RecorderProps) {
  return props.open ? <RecorderPanel {...props} /> : null;
}

type Phase = 'idle' | 'starting' | 'recording';
interface Unsaved {
  audio: Blob;
  fileName: string;
}

function RecorderPanel({ entryId, onClose }: RecorderProps) {
  const id = useId();
  const [phase, setPhase] = useState<Phase>('idle');
  const [elapsed, setElapsed] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [unsaved, setUnsaved] = useState<Unsaved | null>(null);
  const recording = useRef<Recording | null>(null);
  const mounted = useRef(true);
  const stopButton = useRef<HTMLButtonElement>(null);
  const upload = useUploadRecording(entryId);

  // Closed while recording: the microphone is let go and nothing is saved.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      recording.current?.discard();
      recording.current = null;
    };
  }, []);

  useEffect(() => {
    if (phase !== 'recording') return;
    stopButton.current?.focus();
    const startedAt = Date.now();
    const tick = setInterval(() => setElapsed(Math.min(VOICE_NOTE_MAX_SECONDS, Math.floor((Date.now() - startedAt) / 1000))), 250);
    const cap = setTimeout(() => {
      setNotice(voiceCopy.capReached(VOICE_NOTE_MAX_SECONDS));
      recording.current?.stop();
    }, VOICE_NOTE_MAX_SECONDS * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(cap);
    };
  }, [phase]);

  const save = async (audio: Blob, fileName: string) => {
    setProblem(null);
    setUnsaved(null);
    try {
      await upload.mutateAsync({ audio, fileName });
    } catch (error) {
      if (!mounted.current) return;
      // Kept, so Try again sends the same recording rather than asking for it again.
      setUnsaved({ audio, fileName });
      setProblem(error instanceof ApiError && error.message ? error.message : voiceCopy.uploadFailed);
      return;
    }
    toast.success(voiceCopy.saved);
    if (mounted.current) onClose();
  };

  const start = async () => {
    setProblem(null);
    setNotice(null);
    setUnsaved(null);
    if (!canRecord()) {
      setProblem(voiceCopy.recordingUnsupported);
      return;
    }
    setPhase('starting');
    let started: Recording;
    try {
      started = await startRecording({
        onDone: (audio, fileName) => {
          recording.current = null;
          setPhase('idle');
          void save(audio, fileName);
        },
        onError: () => {
          recording.current = null;
          setPhase('idle');
          setProblem(voiceCopy.recordingFailed);
        },
      });
    } catch (error) {
      if (!mounted.current) return;
      setPhase('idle');
      setProblem(microphoneProblem(error));
      return;
    }
    if (!mounted.current) return started.discard();
    recording.current = started;
    setElapsed(0);
    setPhase('recording');
  };

  const pickFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file may be picked again after a failure
    if (file) void save(file, file.name);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !upload.isPending) onClose();
  };

  const busy = phase !== 'idle' || upload.isPending;

  return (
    <section aria-labelledby={`${id}-title`} onKeyDown={onKeyDown} className="mt-5 space-y-3 rounded-xl border border-stone-200 bg-stone-50/60 p-4">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-ink">
        {voiceCopy.recorderTitle}
      </h3>
      {/* The phase is announced; the seconds tick visibly without being read out each time. */}
      <p className="text-sm text-stone-700">
        <span role="status">{phase === 'recording' ? voiceCopy.recording : upload.isPending ? voiceCopy.uploading : ''}</span>
        {phase === 'recording' && (
          <span aria-hidden="true" className="ml-2 font-mono tabular-nums">
            {formatDuration(elapsed)} / {formatDuration(VOICE_NOTE_MAX_SECONDS)}
          </span>
        )}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {phase === 'recording' ? (
          <Button ref={stopButton} size="sm" variant="danger" onClick={() => recording.current?.stop()}>
            <Square aria-hidden="true" className="size-4" />
            {voiceCopy.stopRecording}
          </Button>
        ) : (
          <Button size="sm" onClick={() => void start()} disabled={busy} loading={phase === 'starting'} autoFocus>
            <Mic aria-hidden="true" className="size-4" />
            {voiceCopy.startRecording}
          </Button>
        )}
        <input id={`${id}-file`} type="file" accept="audio/*" disabled={busy} onChange={pickFile} className="peer sr-only" />
        <label
          htmlFor={`${id}-file`}
          className={buttonClasses(
            'secondary',
            'sm',
            'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
          )}
        >
          <Upload aria-hidden="true" className="size-4" />
          {voiceCopy.uploadFile}
        </label>
        <Button size="sm" variant="ghost" onClick={onClose} disabled={upload.isPending}>
          {voiceCopy.cancel}
        </Button>
      </div>
      {notice && <Alert tone="info">{notice}</Alert>}
      {problem && (
        <Alert tone="error">
          <p>{problem}</p>
          {unsaved && (
            <Button size="sm" variant="secondary" className="mt-2" onClick={() => void save(unsaved.audio, unsaved.fileName)}>
              {voiceCopy.tryAgain}
            </Button>
          )}
        </Alert>
      )}
    </section>
  );
}
