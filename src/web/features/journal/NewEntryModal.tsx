import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { toast } from 'sonner';
import { ENTRY_CONTENT_MAX, ENTRY_TITLE_MAX, normalizeEntryText } from '../../../shared/journal-rules';
import { messages } from '../../../shared/messages';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { CharacterCounter } from './CharacterCounter';
import { journalCopy } from './copy';
import { toastFailure } from './feedback';
import { entryTextareaClasses, labelClasses } from './form-styles';
import { Modal } from './Modal';
import { PhotoPicker } from './PhotoPicker';
import { useCreateEntry } from './queries';

/**
 * Spec 2 and 4: write an entry, optionally with a title, tags and photos. Closes when saved;
 * a failed save keeps it open with what was written. It cannot be closed while saving.
 */
export function NewEntryModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateEntry();
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !create.isPending && onOpenChange(next)}
      title="New entry"
      description="What's on your mind today?"
    >
      {/* The form lives inside the dialog's content, so each opening starts blank. */}
      <NewEntryForm create={create} onSaved={() => onOpenChange(false)} onCancel={() => onOpenChange(false)} />
    </Modal>
  );
}

function NewEntryForm({ create, onSaved, onCancel }: { create: ReturnType<typeof useCreateEntry>; onSaved: () => void; onCancel: () => void }) {
  const id = useId();
  const [content, setContent] = useState('');
  const [title, setTitle] = useState('');
  const [tags, setTags] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [formError, setFormError] = useState<string | null>(null);

  const tooLong = content.length > ENTRY_CONTENT_MAX;
  const empty = normalizeEntryText(content) === '' && photos.length === 0;
  const saving = create.isPending;

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (saving) return;
    if (empty) return setFormError(messages.entries.formContentRequired);
    if (tooLong) return setFormError(messages.entries.formContentTooLong);
    setFormError(null);
    try {
      await create.mutateAsync({ draft: { content, title, tags }, photos });
    } catch (error) {
      setFormError(journalCopy.saveFailed);
      toastFailure(error, journalCopy.createFailed);
      return;
    }
    toast.success(journalCopy.createdTitle, { description: journalCopy.created });
    onSaved();
  };

  // Ctrl/⌘ + Enter saves from anywhere in the form.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void save();
  };

  return (
    <form onSubmit={(e) => void save(e)} onKeyDown={onKeyDown} className="space-y-5" noValidate>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-content`} className={labelClasses}>
          Your entry
        </label>
        <textarea
          id={`${id}-content`}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          placeholder="Today I…"
          autoFocus
          aria-describedby={`${id}-count`}
          aria-invalid={tooLong || undefined}
          className={entryTextareaClasses}
        />
        <div className="flex items-start justify-between gap-3">
          <p className="text-xs text-red-700">{tooLong ? messages.entries.formContentTooLong : ''}</p>
          <CharacterCounter id={`${id}-count`} length={content.length} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <label htmlFor={`${id}-title`} className={labelClasses}>
            Title <span className="font-normal text-stone-500">(optional)</span>
          </label>
          <Input id={`${id}-title`} value={title} maxLength={ENTRY_TITLE_MAX} onChange={(e) => setTitle(e.target.value)} />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={`${id}-tags`} className={labelClasses}>
            Tags <span className="font-normal text-stone-500">(optional, comma separated)</span>
          </label>
          <Input id={`${id}-tags`} value={tags} onChange={(e) => setTags(e.target.value)} placeholder="gratitude, family" />
        </div>
      </div>
      <PhotoPicker id={`${id}-photos`} files={photos} onFilesChange={setPhotos} disabled={saving} />
      {formError && <Alert tone="error">{formError}</Alert>}
      <div className="flex flex-col-reverse gap-2 border-t border-stone-200 pt-5 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={empty || tooLong} loading={saving}>
          {saving ? journalCopy.saving : 'Save'}
        </Button>
      </div>
    </form>
  );
}
