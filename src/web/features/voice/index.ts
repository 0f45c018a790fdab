import { lazyDialog } from '../../components/ui/lazy-dialog';
import { journalCopy } from '../journal/copy';
import { toastFailure } from '../journal/feedback';

export { EntryRecordings } from './RecordingPlayer';
export { voiceCopy } from './voice-copy';

/** The voice note recorder, loaded the first time it opens: the journal's first screen has only the players. */
export const VoiceNoteRecorder = lazyDialog(() => import('./VoiceNoteRecorder').then((m) => m.VoiceNoteRecorder), {
  isOpen: (p) => p.open,
  close: (p) => p.onClose(),
  onLoadError: (error) => toastFailure(error, journalCopy.loadError),
});
