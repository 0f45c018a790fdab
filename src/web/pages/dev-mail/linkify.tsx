import type { ReactNode } from 'react';

// http(s) only; a sentence's closing punctuation is not part of the link.
const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
const TRAILING = /[.,;:!?)\]]+$/;

/** Plain text with its web addresses turned into links; everything else stays text (React escapes it). */
export function linkify(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    const url = match[0].replace(TRAILING, '');
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <a key={start} href={url} className="break-all font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
        {url}
      </a>,
    );
    last = start + url.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
