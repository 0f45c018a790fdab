import { formatDuration, VOICE_MAX_SECONDS_DEFAULT, voiceMessages, voiceNoteLabel } from '../../../shared/voice-messages';

export { formatDuration };

/** The longest voice note the browser records, as the server caps it by default. */
export const VOICE_NOTE_MAX_SECONDS = VOICE_MAX_SECONDS_DEFAULT;

/** The journal's words for voice notes: the server's (src/shared/voice-messages.ts), and the web app's own. */
export const voiceCopy = {
  voiceNoteLabel,
  transcribing: voiceMessages.transcribing,
  notTranscribed: voiceMessages.notTranscribed,
  transcribeAgain: voiceMessages.transcribeAgain,
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
