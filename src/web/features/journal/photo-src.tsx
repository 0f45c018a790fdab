import { useEffect, useState, type ImgHTMLAttributes } from 'react';
import { vaultJournalCode } from './vault-mode';

/** Ends the link of a Vault photo (its stored bytes are sealed): the browser opens it before showing it. */
export const SEALED_PHOTO_MARK = '#sealed';

/** The address to show a photo from: a Vault photo opened in this tab (a blob: address), any other as it is. */
function usePhotoSrc(src: string): string | undefined {
  const sealed = src.endsWith(SEALED_PHOTO_MARK);
  const [opened, setOpened] = useState<{ src: string; url: string } | null>(null);
  useEffect(() => {
    if (!sealed) return;
    let live = true;
    vaultJournalCode
      .load()
      .then((vault) => vault.openedPhotoUrl(src))
      .then(
        (url) => live && setOpened({ src, url }),
        () => undefined, // locked meanwhile, or the link expired: the journal reads it again
      );
    return () => {
      live = false;
    };
  }, [src, sealed]);
  if (!sealed) return src;
  return opened?.src === src ? opened.url : undefined;
}

/** An <img> that shows a Vault photo opened, and any other photo as it is. */
export function PhotoImg({ src, ...props }: ImgHTMLAttributes<HTMLImageElement> & { src: string }) {
  return <img src={usePhotoSrc(src)} {...props} />;
}
