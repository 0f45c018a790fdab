import { useEffect, useState } from 'react';
import { SEALED_PHOTO_MARK } from '../journal/photo-src';
import { vaultJournalCode } from '../journal/vault-mode';

/**
 * The address to play a recording from: a Vault recording (its link marked sealed) opened in this tab
 * as a blob: address, any other as it is. `failed`: a sealed one that could not be opened.
 */
export function useRecordingSrc(url: string, mimeType: string): { src: string | undefined; failed: boolean } {
  const sealed = url.endsWith(SEALED_PHOTO_MARK);
  const [opened, setOpened] = useState<{ url: string; src: string | null } | null>(null);
  useEffect(() => {
    if (!sealed) return;
    let live = true;
    vaultJournalCode
      .load()
      .then((vault) => vault.openedRecordingUrl(url, mimeType))
      .then(
        (src) => live && setOpened({ url, src }),
        () => live && setOpened({ url, src: null }),
      );
    return () => {
      live = false;
    };
  }, [url, mimeType, sealed]);
  if (!sealed) return { src: url, failed: false };
  const current = opened?.url === url ? opened : null;
  return { src: current?.src ?? undefined, failed: current?.src === null };
}
