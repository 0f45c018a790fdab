import { Mic, Phone, Square } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { inputClasses } from '../../components/ui/Input';
import { cn } from '../../components/ui/cn';

interface CallAnswer {
  call_sid: string;
  recorded: boolean;
  said: string;
  heard: string;
}

type Audio = { blob: Blob; name: string };

/**
 * Calls the journal number: a file or a recording from the microphone (none: the server makes a
 * tone), and what was said, which the development transcriber hears. Shows what the caller heard.
 */
export function CallPanel({ phone, disabled }: { phone: string | null; disabled?: boolean }) {
  const [audio, setAudio] = useState<Audio | null>(null);
  const [said, setSaid] = useState('');
  const [recording, setRecording] = useState(false);
  const [calling, setCalling] = useState(false);
  const [answer, setAnswer] = useState<CallAnswer | null>(null);
  const [error, setError] = useState<string>();
  const recorder = useRef<MediaRecorder | null>(null);

  const startRecording = async () => {
    setError(undefined);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const chunks: Blob[] = [];
      const next = new MediaRecorder(stream);
      next.ondataavailable = (event) => chunks.push(event.data);
      next.onstop = () => {
        stream.getTracks().forEach((track) => track.stop());
        setAudio({ blob: new Blob(chunks, { type: next.mimeType }), name: 'microphone.webm' });
        setRecording(false);
      };
      recorder.current = next;
      next.start();
      setRecording(true);
    } catch {
      setError('The microphone is not available here; pick a file instead.');
    }
  };

  const call = async (event: FormEvent) => {
    event.preventDefault();
    if (!phone) return;
    setCalling(true);
    setError(undefined);
    setAnswer(null);
    const form = new FormData();
    form.set('from', phone);
    form.set('said', said);
    if (audio) form.set('audio', audio.blob, audio.name);
    try {
      const res = await fetch('/api/dev/phone/calls', { method: 'POST', body: form });
      const payload = (await res.json().catch(() => undefined)) as (CallAnswer & { error?: { message?: string } }) | undefined;
      if (!res.ok || !payload) throw new Error(payload?.error?.message ?? `The server answered ${res.status}.`);
      setAnswer(payload);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setCalling(false);
    }
  };

  const off = disabled || !phone;
  return (
    <form onSubmit={call} aria-label="Call the journal number" className="mt-5 space-y-2 rounded-3xl border border-stone-200 bg-white p-4 shadow-sm">
      <h2 className="text-sm font-semibold text-ink">Call</h2>
      <div className="flex flex-wrap items-center gap-2">
        <label className="text-sm text-stone-600">
          <span className="sr-only">Audio file</span>
          <input
            type="file"
            accept="audio/*"
            disabled={off || recording}
            onChange={(e) => {
              const file = e.target.files?.[0];
              setAudio(file ? { blob: file, name: file.name } : null);
            }}
            className="text-sm"
          />
        </label>
        {recording ? (
          <Button type="button" size="sm" variant="secondary" onClick={() => recorder.current?.stop()}>
            <Square aria-hidden="true" className="size-4" /> Stop
          </Button>
        ) : (
          <Button type="button" size="sm" variant="secondary" disabled={off} onClick={() => void startRecording()}>
            <Mic aria-hidden="true" className="size-4" /> Record
          </Button>
        )}
      </div>
      <p className="text-xs text-stone-500">{audio ? `Audio: ${audio.name}` : 'No audio: the call records a tone.'}</p>
      <label htmlFor="dev-phone-said" className="block text-sm text-stone-700">
        What the caller says
      </label>
      <textarea id="dev-phone-said" rows={2} value={said} disabled={off} onChange={(e) => setSaid(e.target.value)} className={cn(inputClasses, 'min-h-11 resize-y')} />
      <Button type="submit" disabled={off || calling || recording}>
        <Phone aria-hidden="true" className="size-4" /> {calling ? 'Calling…' : 'Call'}
      </Button>
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      {answer && (
        <p role="status" className="text-sm text-stone-700">
          Heard: “{answer.heard}” {answer.recorded ? '(recorded into the journal)' : '(not recorded)'}
        </p>
      )}
    </form>
  );
}
