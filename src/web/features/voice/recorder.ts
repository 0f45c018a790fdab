import { voiceCopy } from './voice-copy';

// Recording in the browser with MediaRecorder: Opus in WebM where it can (Chromium, Firefox), MP4
// (AAC) in Safari, which records nothing else.

const PREFERRED_TYPES = ['audio/webm;codecs=opus', 'audio/mp4', 'audio/webm', 'audio/ogg;codecs=opus'];

/** The first audio format this browser records; '' lets it choose. */
export function pickRecordingType(): string {
  return PREFERRED_TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? '';
}

/** A name for a recording's upload, by its format (the server reads the audio itself, not the name). */
export function recordingFileName(type: string): string {
  const base = type.split(';')[0]!.trim();
  const extension = base === 'audio/mp4' ? 'm4a' : base === 'audio/ogg' ? 'ogg' : 'webm';
  return `voice-note.${extension}`;
}

export const canRecord = () => typeof MediaRecorder !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';

/** What to tell the person when the microphone could not be had. */
export function microphoneProblem(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return voiceCopy.microphoneDenied;
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return voiceCopy.noMicrophone;
  return voiceCopy.recordingFailed;
}

export interface Recording {
  /** Stops and hands the audio to `onDone`. */
  stop: () => void;
  /** Stops and throws the audio away. */
  discard: () => void;
}

/** Starts recording from the microphone; rejects when it cannot be had (see microphoneProblem). */
export async function startRecording(handlers: { onDone: (audio: Blob, fileName: string) => void; onError: () => void }): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const release = () => stream.getTracks().forEach((track) => track.stop());
  let recorder: MediaRecorder;
  try {
    const type = pickRecordingType();
    recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
  } catch (error) {
    release();
    throw error;
  }
  const chunks: Blob[] = [];
  let keep = true;
  recorder.addEventListener('dataavailable', (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  });
  recorder.addEventListener('stop', () => {
    release();
    if (!keep) return;
    const type = recorder.mimeType || chunks[0]?.type || 'audio/webm';
    handlers.onDone(new Blob(chunks, { type }), recordingFileName(type));
  });
  recorder.addEventListener('error', () => {
    keep = false;
    release();
    handlers.onError();
  });
  recorder.start();
  const stop = () => {
    if (recorder.state !== 'inactive') recorder.stop();
  };
  return {
    stop,
    discard: () => {
      keep = false;
      stop();
      release();
    },
  };
}
