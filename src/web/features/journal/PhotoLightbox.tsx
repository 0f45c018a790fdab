import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { KeyboardEvent } from 'react';
import type { EntryPhoto } from '../../../shared/journal';
import { useReturnFocus } from '../../components/ui/return-focus';
import { photoAlt } from './photo-rules';
import { PhotoImg } from './photo-src';

/**
 * One photo at a time, full size: ←/→ (and the buttons) step through, Escape closes,
 * focus is kept inside while open.
 */
export function PhotoLightbox(props: {
  photos: EntryPhoto[];
  /** Null when closed. */
  index: number | null;
  onIndexChange: (index: number | null) => void;
  day: string;
}) {
  const { photos, index, onIndexChange, day } = props;
  const count = photos.length;
  const open = index !== null && count > 0;
  const returnFocus = useReturnFocus(open);
  const current = open ? Math.min(index, count - 1) : 0;
  const photo = photos[current];
  const step = (delta: number) => onIndexChange((current + delta + count) % count);

  const onKeyDown = (event: KeyboardEvent) => {
    if (count < 2) return;
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      step(1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      step(-1);
    }
  };

  const navButton = 'flex size-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20';
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onIndexChange(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink/90 backdrop-blur-sm" />
        <Dialog.Content
          {...returnFocus}
          onKeyDown={onKeyDown}
          aria-describedby={undefined}
          className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 p-4 focus:outline-none sm:p-8"
        >
          <Dialog.Title className="sr-only">{photo ? photoAlt(current, count, day) : 'Photo'}</Dialog.Title>
          <div className="flex w-full max-w-5xl items-center justify-between text-sm text-white/80">
            <p aria-live="polite" className="tabular-nums">
              {current + 1} / {count}
            </p>
            <Dialog.Close aria-label="Close photo" className={navButton}>
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          <div className="flex min-h-0 w-full max-w-5xl flex-1 items-center justify-center gap-2 sm:gap-4">
            {count > 1 && (
              <button type="button" aria-label="Previous photo" onClick={() => step(-1)} className={navButton}>
                <ChevronLeft aria-hidden="true" className="size-6" />
              </button>
            )}
            <div className="flex min-w-0 flex-1 items-center justify-center">
              {photo && (
                <PhotoImg
                  key={photo.id}
                  src={photo.url}
                  alt={photoAlt(current, count, day)}
                  className="max-h-[calc(100dvh-9rem)] max-w-full rounded-lg object-contain shadow-2xl"
                />
              )}
            </div>
            {count > 1 && (
              <button type="button" aria-label="Next photo" onClick={() => step(1)} className={navButton}>
                <ChevronRight aria-hidden="true" className="size-6" />
              </button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
