// Voice notes' words (DESIGN 6, voice): for the server's answers, the web app and the exports.

/** The longest voice note by default (VOICE_MAX_SECONDS). */
export const VOICE_MAX_SECONDS_DEFAULT = 300;

/** The largest voice note file accepted. */
export const VOICE_MAX_BYTES = 25 * 1024 * 1024;

/** m:ss (or h:mm:ss) of a length in seconds, rounded to the nearest second. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "Voice note, 1:42": how a recording is named in an entry, in exports and beside the player. */
export function voiceNoteLabel(seconds: number): string {
  return `Voice note, ${formatDuration(seconds)}`;
}

/** "5 minutes", "90 seconds", "1 minute 30 seconds": a length limit in words. */
function lengthInWords(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  const minutes = m === 1 ? '1 minute' : `${m} minutes`;
  const secs = s === 1 ? '1 second' : `${s} seconds`;
  if (m === 0) return secs;
  return s === 0 ? minutes : `${minutes} ${secs}`;
}

export const voiceMessages = {
  transcribing: 'Transcribing…',
  notTranscribed: 'Not transcribed',
  transcribeAgain: 'Transcribe again',
  errors: {
    notAudio: 'That file is not audio we can play.',
    tooLong: (maxSeconds: number = VOICE_MAX_SECONDS_DEFAULT) => `Voice notes can be up to ${lengthInWords(maxSeconds)}.`,
    tooLarge: 'Voice notes can be up to 25 MB.',
    noFile: 'Choose an audio file to add.',
    recordingNotFound: 'That voice note was not found.',
    /** The server has no audio decoder (ffmpeg): voice notes cannot be taken. */
    noDecoder: 'Voice notes cannot be added right now. Try again later.',
    /** Transcribe again, for a recording that has a transcript or is being transcribed. */
    notFailed: 'This voice note is already transcribed or being transcribed.',
    /** Transcribe again, for a vault user: the server keeps only sealed audio it cannot hear. */
    sealedAudio: 'This voice note is sealed in your vault, so it can no longer be transcribed on the server.',
    /** Transcribe again without a transcription service configured. */
    noTranscription: 'Transcription is not set up on this server.',
    /** An upload's optional fields (an import's: the words it already has, where it came from). */
    transcriptTooLong: 'A voice note’s transcript can be up to 10,000 characters.',
    transcriptInTextInvalid: 'transcript_in_text must be true or false.',
    transcriptInTextAlone: 'transcript_in_text goes with a transcript.',
    sourceKeyInvalid: 'source_key must start with "import:" and be at most 200 characters.',
    fieldTwice: (name: string) => `${name} can be given once.`,
    fieldsAfterFile: 'Send transcript, transcript_in_text and source_key before the file.',
  },
};
