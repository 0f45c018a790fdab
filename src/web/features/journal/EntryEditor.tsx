import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';

/** Brings a notice that just appeared into view: on a phone it opens below the fold, under the editor. */
const showWhenShown = (element: HTMLElement | null) => element?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
import { toast } from 'sonner';
import { ApiError } from '../../api/errors';
import type { JournalEntry } from '../../../shared/journal';
import { ENTRY_CONTENT_MAX, ENTRY_TITLE_MAX, normalizeEntryText } from '../../../shared/journal-rules';
import { messages } from '../../../shared/messages';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { CharacterCounter } from './CharacterCounter';
import { journalCopy } from './copy';
import { toastFailure } from './feedback';
import { entryTextareaClasses, labelClasses } from './form-styles';
import { PhotoPicker } from './PhotoPicker';
import { photoAlt } from './photo-rules';
import { EntryChangedError } from './entry-changed';
import { PhotosNotSavedError, useUpdateEntry } from './queries';

/** The text of an entry as the editor holds it. */
interface EntryText {
  content: string;
  title: string;
  tags: string;
}

const textOf = (entry: JournalEntry): EntryText => ({ content: entry.content, title: entry.title ?? '', tags: entry.tags.join(', ') });

/**
 * Edit mode of an entry card: text, title, tags, photos kept or removed, photos added. The save is
 * made from the entry as the editor opened it (`base`): when a text arrived or another tab saved
 * meanwhile, nothing is saved and the editor shows what changed, keeping what the user typed.
 */
export function EntryEditor({ entry, day, onDone }: { entry: JournalEntry; day: string; onDone: () => void }) {
  const id = useId();
  // What the user's edit is based on: the entry as opened, not as the live list shows it later.
  const [base, setBase] = useState(() => ({ version: entry.version, text: textOf(entry) }));
  const [content, setContent] = useState(entry.content);
  const [title, setTitle] = useState(entry.title ?? '');
  const [tags, setTags] = useState(entry.tags.join(', '));
  const [removed, setRemoved] = useState<string[]>([]);
  const [added, setAdded] = useState<File[]>([]);
  const [failed, setFailed] = useState(false);
  const [changed, setChanged] = useState<{ entry: JournalEntry; arrived: string | null } | null>(null);
  const [photosFailed, setPhotosFailed] = useState<string | null>(null);
  const update = useUpdateEntry(entry.id);

  const keptPhotos = entry.photos.filter((p) => !removed.includes(p.id));
  const photoCount = keptPhotos.length + added.length;
  // An entry that texts made longer than the limit (before continuation entries) may be edited and
  // saved as long as it does not grow; the server holds it to the same rule.
  const oversized = entry.content.length > ENTRY_CONTENT_MAX;
  const tooLong = oversized ? normalizeEntryText(content).length > entry.content.length : content.length > ENTRY_CONTENT_MAX;
  const empty = normalizeEntryText(content) === '' && photoCount === 0;
  // After a refused save, the user says how to go on before saving again.
  const canSave = !tooLong && !empty && !update.isPending && !changed;

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSave) return;
    setFailed(false);
    setPhotosFailed(null);
    const draft = { content, title, tags };
    // After photos failed, a text already saved is not sent again.
    const textChanged = draft.content !== base.text.content || draft.title !== base.text.title || draft.tags !== base.text.tags;
    const text = textChanged || (removed.length === 0 && added.length === 0) ? { draft, baseVersion: base.version } : null;
    try {
      await update.mutateAsync({ text, removePhotoIds: removed, addPhotos: added });
    } catch (error) {
      if (error instanceof EntryChangedError) {
        setChanged({ entry: error.entry, arrived: arrivedAfter(base.text.content, error.entry.content) });
        return;
      }
      if (error instanceof PhotosNotSavedError) {
        // The text is saved: what the editor holds is now the entry's text.
        setBase((was) => ({ ...was, text: draft }));
        setPhotosFailed(error.cause instanceof ApiError && error.cause.message ? error.cause.message : journalCopy.saveFailed);
        return;
      }
      setFailed(true);
      toastFailure(error, journalCopy.updateFailed);
      return;
    }
    toast.success(journalCopy.updatedTitle);
    onDone();
  };

  /** The user's answer to a refused save: the next save is based on the entry as it is now. */
  const settle = (how: 'add' | 'keep' | 'saved') => {
    if (!changed) return;
    const now = textOf(changed.entry);
    if (how === 'add' && changed.arrived) setContent((typed) => `${typed.trimEnd()}\n\n${changed.arrived}`);
    if (how === 'saved') {
      setContent(now.content);
      setTitle(now.title);
      setTags(now.tags);
    }
    setBase({ version: changed.entry.version, text: now });
    setChanged(null);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void save();
  };

  return (
    <form onSubmit={(e) => void save(e)} onKeyDown={onKeyDown} className="space-y-4" aria-label="Edit entry">
      <div className="space-y-1.5">
        <label htmlFor={`${id}-title`} className={labelClasses}>
          Title <span className="font-normal text-stone-500">(optional)</span>
        </label>
        <Input id={`${id}-title`} value={title} maxLength={ENTRY_TITLE_MAX} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-content`} className={labelClasses}>
          Entry
        </label>
        <textarea
          id={`${id}-content`}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          aria-describedby={`${id}-count${tooLong || oversized ? ` ${id}-too-long` : ''}`}
          aria-invalid={tooLong || undefined}
          autoFocus
          className={entryTextareaClasses}
        />
        <div className="flex items-start justify-between gap-3">
          <p id={`${id}-too-long`} className={tooLong ? 'text-xs text-red-700' : 'text-xs text-stone-600'}>
            {oversized ? messages.journalPage.oversized(ENTRY_CONTENT_MAX.toLocaleString('en-US')) : tooLong ? messages.entries.formContentTooLong : ''}
          </p>
          <CharacterCounter id={`${id}-count`} text={content} />
        </div>
      </div>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-tags`} className={labelClasses}>
          Tags <span className="font-normal text-stone-500">(separate with commas)</span>
        </label>
        <Input id={`${id}-tags`} value={tags} onChange={(e) => setTags(e.target.value)} placeholder="gratitude, family" />
      </div>
      <PhotoPicker
        id={`${id}-photos`}
        files={added}
        onFilesChange={setAdded}
        disabled={update.isPending}
        room={{ count: keptPhotos.length, bytes: keptPhotos.reduce((sum, p) => sum + p.file_size, 0) }}
        kept={keptPhotos.map((photo) => {
          const index = entry.photos.indexOf(photo);
          return {
            key: photo.id,
            src: photo.thumbnail_url,
            alt: photoAlt(index, entry.photos.length, day),
            onRemove: () => setRemoved((ids) => [...ids, photo.id]),
          };
        })}
      />
      {changed && (
        <div ref={showWhenShown}>
          <Alert tone="error" title={journalCopy.changedTitle}>
            <p>{changed.arrived ? journalCopy.changedByText : journalCopy.changedElsewhere}</p>
            <p className="mt-2 font-semibold">{changed.arrived ? journalCopy.arrivedLabel : journalCopy.savedLabel}</p>
            <blockquote className="mt-1 max-h-40 overflow-y-auto rounded-lg border border-red-200 bg-white p-2 whitespace-pre-wrap text-ink">
              {changed.arrived ?? changed.entry.content}
            </blockquote>
            <div className="mt-3 flex flex-wrap gap-2">
              {changed.arrived && (
                <Button size="sm" onClick={() => settle('add')}>
                  {journalCopy.addArrived}
                </Button>
              )}
              <Button size="sm" variant="secondary" onClick={() => settle('keep')}>
                {journalCopy.keepMine}
              </Button>
              {!changed.arrived && (
                <Button size="sm" variant="secondary" onClick={() => settle('saved')}>
                  {journalCopy.useSaved}
                </Button>
              )}
            </div>
          </Alert>
        </div>
      )}
      {photosFailed && (
        <Alert tone="error" title={journalCopy.photosNotSavedTitle}>
          {journalCopy.photosNotSaved(photosFailed)}
        </Alert>
      )}
      {failed && <Alert tone="error">{journalCopy.saveFailed}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canSave} loading={update.isPending}>
          {update.isPending ? journalCopy.saving : 'Save'}
        </Button>
      </div>
    </form>
  );
}

/**
 * What texts added to an entry since the editor opened it: texts arrive at the end, after a blank
 * line. Null when the entry changed in some other way (another tab rewrote it).
 */
export function arrivedAfter(opened: string, now: string): string | null {
  if (!now.startsWith(opened)) return null;
  const arrived = now.slice(opened.length).trim();
  return arrived === '' ? null : arrived;
}
