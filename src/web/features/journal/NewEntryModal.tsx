import { AlertDialog } from 'radix-ui';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { toast } from 'sonner';
import { ENTRY_CONTENT_MAX, ENTRY_TITLE_MAX, normalizeEntryText } from '../../../shared/journal-rules';
import { messages } from '../../../shared/messages';
import { Alert } from '../../components/ui/Alert';
import { Button, buttonClasses } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Input } from '../../components/ui/Input';
import { CharacterCounter } from './CharacterCounter';
import { journalCopy } from './copy';
import { toastFailure } from './feedback';
import { entryTextareaClasses, labelClasses } from './form-styles';
import { Modal, overlayClasses, panelClasses } from './Modal';
import { PhotoPicker } from './PhotoPicker';
import { useCreateEntry } from './queries';

/**
 * Spec 2 and 4: write an entry, optionally with a title, tags and photos. Closes when saved;
 * a failed save keeps it open with what was written. It cannot be closed while saving, and closing
 * it (Escape, the backdrop, Close, Cancel) with something written asks before throwing it away.
 */
export function NewEntryModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateEntry();
  const written = useRef(false);
  const [confirming, setConfirming] = useState(false);
  const noteWritten = useCallback((value: boolean) => {
    written.current = value;
  }, []);
  const close = () => {
    if (create.isPending) return;
    if (written.current) setConfirming(true);
    else onOpenChange(false);
  };
  return (
    <>
      <Modal open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())} title="New entry" description="What's on your mind today?">
        {/* The form lives inside the dialog's content, so each opening starts blank. */}
        <NewEntryForm
          create={create}
          onWrittenChange={noteWritten}
          onSaved={() => {
            written.current = false;
            onOpenChange(false);
          }}
          onCancel={close}
        />
      </Modal>
      <DiscardDialog
        open={confirming}
        onKeep={() => setConfirming(false)}
        onDiscard={() => {
          setConfirming(false);
          written.current = false;
          onOpenChange(false);
        }}
      />
    </>
  );
}

/** Asks before a written entry is thrown away; Escape or "Keep writing" goes back to it. */
function DiscardDialog({ open, onKeep, onDiscard }: { open: boolean; onKeep: () => void; onDiscard: () => void }) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && onKeep()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={cn(overlayClasses, 'z-50')} />
        <AlertDialog.Content className={cn(panelClasses, 'z-50 max-w-md p-6')}>
          <AlertDialog.Title className="font-serif text-xl font-semibold text-ink">{journalCopy.discardTitle}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm leading-6 text-stone-600">{journalCopy.discardBody}</AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('secondary')}>{journalCopy.keepWriting}</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClasses('danger')} onClick={onDiscard}>
              {journalCopy.discard}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** A key for one dialog's entry: a save sent twice (a double click, a retry) makes one entry. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function NewEntryForm({
  create,
  onWrittenChange,
  onSaved,
  onCancel,
}: {
  create: ReturnType<typeof useCreateEntry>;
  onWrittenChange: (written: boolean) => void;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [content, setContent] = useState('');
  const [title, setTitle] = useState('');
  const [tags, setTags] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [idempotencyKey] = useState(newIdempotencyKey);
  // Set at once, before React shows the save running: a second click in the same moment does nothing.
  const saving = useRef(false);
  const written = content.trim() !== '' || title.trim() !== '' || tags.trim() !== '' || photos.length > 0;
  useEffect(() => onWrittenChange(written), [written, onWrittenChange]);

  const tooLong = content.length > ENTRY_CONTENT_MAX;
  const empty = normalizeEntryText(content) === '' && photos.length === 0;
  const pending = create.isPending;

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (saving.current) return;
    if (empty) return setFormError(messages.entries.formContentRequired);
    if (tooLong) return setFormError(messages.entries.formContentTooLong);
    setFormError(null);
    saving.current = true;
    try {
      await create.mutateAsync({ draft: { content, title, tags }, photos, idempotencyKey });
    } catch (error) {
      setFormError(journalCopy.saveFailed);
      toastFailure(error, journalCopy.createFailed);
      return;
    } finally {
      saving.current = false;
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
          <CharacterCounter id={`${id}-count`} text={content} />
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
      <PhotoPicker id={`${id}-photos`} files={photos} onFilesChange={setPhotos} disabled={pending} />
      {formError && <Alert tone="error">{formError}</Alert>}
      <div className="flex flex-col-reverse gap-2 border-t border-stone-200 pt-5 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={empty || tooLong} loading={pending}>
          {pending ? journalCopy.saving : 'Save'}
        </Button>
      </div>
    </form>
  );
}
