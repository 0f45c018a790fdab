import { ImagePlus, X } from 'lucide-react';
import { useEffect, useState, type ChangeEvent } from 'react';
import { formatMegabytes, PHOTOS_PER_ENTRY_MAX } from '../../../shared/journal-rules';
import { Alert } from '../../components/ui/Alert';
import { buttonClasses } from '../../components/ui/Button';
import { PHOTO_ACCEPT, selectPhotos, type PhotoRoom } from './photo-rules';
import { PhotoImg } from './photo-src';

/** A photo already on the entry, shown beside the new ones. */
interface KeptPhoto {
  key: string;
  src: string;
  alt: string;
  onRemove: () => void;
}

/** Object URLs for previews, released when the files change or the picker goes away. */
function usePreviewUrls(files: readonly File[]): string[] {
  const [urls, setUrls] = useState<string[]>([]);
  useEffect(() => {
    const created = files.map((file) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : ''));
    setUrls(created);
    return () => created.forEach((url) => url && URL.revokeObjectURL(url));
  }, [files]);
  return urls;
}

/**
 * Attach photos: checks each chosen file against the spec's rules (type, 10 MB each, 10 MB per
 * entry, 10 photos), shows previews with a remove button, and says why a file was refused.
 */
export function PhotoPicker(props: {
  id: string;
  files: File[];
  onFilesChange: (files: File[]) => void;
  /** Photos the entry keeps (when editing): they count against the limits. */
  kept?: KeptPhoto[];
  room?: PhotoRoom;
  disabled?: boolean;
}) {
  const { id, files, onFilesChange, kept = [], room, disabled } = props;
  const [errors, setErrors] = useState<string[]>([]);
  const urls = usePreviewUrls(files);

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = ''; // so the same file can be chosen again after removing it
    if (picked.length === 0) return;
    const selection = selectPhotos(picked, files, room);
    setErrors(selection.errors);
    if (selection.accepted.length > 0) onFilesChange([...files, ...selection.accepted]);
  };

  const remove = (index: number) => {
    setErrors([]);
    onFilesChange(files.filter((_, i) => i !== index));
  };

  const total = kept.length + files.length;
  const newBytes = files.reduce((sum, f) => sum + f.size, 0);
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          type="file"
          accept={PHOTO_ACCEPT}
          multiple
          disabled={disabled}
          onChange={onPick}
          className="peer sr-only"
        />
        <label
          htmlFor={id}
          className={buttonClasses(
            'secondary',
            'sm',
            'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
          )}
        >
          <ImagePlus aria-hidden="true" className="size-4" />
          Add photos
        </label>
        {total > 0 && (
          <p className="text-xs text-stone-500">
            {total} of {PHOTOS_PER_ENTRY_MAX} photos{files.length > 0 && ` · ${formatMegabytes(newBytes)} MB to upload`}
          </p>
        )}
      </div>
      {errors.length > 0 && (
        <Alert tone="error">
          <ul className="space-y-0.5">
            {errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </Alert>
      )}
      {total > 0 && (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5" aria-label="Attached photos">
          {kept.map((photo) => (
            <PhotoTile key={photo.key} src={photo.src} alt={photo.alt} removeLabel={`Remove ${photo.alt}`} onRemove={photo.onRemove} disabled={disabled} />
          ))}
          {files.map((file, index) => (
            <PhotoTile
              key={`${file.name}-${file.size}-${index}`}
              src={urls[index]}
              alt={file.name}
              removeLabel={`Remove ${file.name}`}
              onRemove={() => remove(index)}
              disabled={disabled}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function PhotoTile(props: { src: string | undefined; alt: string; removeLabel: string; onRemove: () => void; disabled?: boolean }) {
  return (
    <li className="relative aspect-square overflow-hidden rounded-lg border border-stone-200 bg-stone-100">
      {props.src && <PhotoImg src={props.src} alt={props.alt} className="size-full object-cover" />}
      <button
        type="button"
        onClick={props.onRemove}
        disabled={props.disabled}
        aria-label={props.removeLabel}
        className="absolute top-1 right-1 flex size-7 items-center justify-center rounded-full bg-ink/70 text-white shadow hover:bg-ink disabled:opacity-50"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </li>
  );
}
