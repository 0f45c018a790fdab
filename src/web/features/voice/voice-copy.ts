/** The longest voice note the browser records, as the server caps it (VOICE_MAX_SECONDS' default). */
export const VOICE_NOTE_MAX_SECONDS = 300;

/** m:ss, as a recording's length is said. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** The journal's words for voice notes. */
export const voiceCopy = {
  voiceNoteLabel: (seconds: number) => `Voice note, ${formatDuration(seconds)}`,
  transcribing: 'Transcribing…',
  notTranscribed: 'Not transcribed',
  transcribeAgain: 'Transcribe again',
  transcript: 'Transcript',
  transcribeFailed: 'The voice note could not be sent for transcription. Try again.',
  deleteTitle: 'Delete voice note',
  deleteConfirm: 'This voice note and its transcript will be deleted. Text already in the entry stays. This cannot be undone.',
  deleting: 'Deleting…',
  deleted: 'Voice note deleted',
  deleteFailed: 'The voice note could not be deleted. Try again.',
  recordFor: (day: string) => `Record voice note for entry from ${day}`,
  recorderTitle: 'Voice note',
  startRecording: 'Record voice note',
  stopRecording: 'Stop',
  uploadFile: 'Upload audio file',
  cancel: 'Cancel',
  close: 'Close',
  recording: 'Recording…',
  tryAgain: 'Try again',
  uploading: 'Saving voice note…',
  saved: 'Voice note saved',
  uploadFailed: 'The voice note could not be saved. Try again.',
  microphoneDenied: 'Jotline may not use your microphone. Allow it in your browser’s site settings, or upload an audio file instead.',
  noMicrophone: 'No microphone was found. Connect one, or upload an audio file instead.',
  recordingUnsupported: 'This browser cannot record audio. Upload an audio file instead.',
  recordingFailed: 'The recording stopped unexpectedly. Try again, or upload an audio file.',
  capReached: (max: number) => `Voice notes are at most ${formatDuration(max)} long: the recording stopped there.`,
  sealedUnopenable: 'This voice note could not be opened with your vault’s key.',
};
