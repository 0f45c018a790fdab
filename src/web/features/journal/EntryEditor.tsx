import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { toast } from 'sonner';
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
import { useUpdateEntry } from './queries';

/** Edit mode of an entry card: text, title, tags, photos kept or removed, photos added. */
export function EntryEditor({ entry, day, onDone }: { entry: JournalEntry; day: string; onDone: () => void }) {
  const id = useId();
  const [content, setContent] = useState(entry.content);
  const [title, setTitle] = useState(entry.title ?? '');
  const [tags, setTags] = useState(entry.tags.join(', '));
  const [removed, setRemoved] = useState<string[]>([]);
  const [added, setAdded] = useState<File[]>([]);
  const [failed, setFailed] = useState(false);
  const update = useUpdateEntry(entry.id);

  const keptPhotos = entry.photos.filter((p) => !removed.includes(p.id));
  const photoCount = keptPhotos.length + added.length;
  // An entry that texts made longer than the limit (before continuation entries) may be edited and
  // saved as long as it does not grow; the server holds it to the same rule.
  const oversized = entry.content.length > ENTRY_CONTENT_MAX;
  const tooLong = oversized ? normalizeEntryText(content).length > entry.content.length : content.length > ENTRY_CONTENT_MAX;
  const empty = normalizeEntryText(content) === '' && photoCount === 0;
  const canSave = !tooLong && !empty && !update.isPending;

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSave) return;
    setFailed(false);
    try {
      await update.mutateAsync({ draft: { content, title, tags }, removePhotoIds: removed, addPhotos: added });
    } catch (error) {
      setFailed(true);
      toastFailure(error, journalCopy.updateFailed);
      return;
    }
    toast.success(journalCopy.updatedTitle);
    onDone();
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
          <CharacterCounter id={`${id}-count`} length={content.length} />
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
