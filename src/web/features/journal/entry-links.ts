/** A piece of an entry's text: plain, or a web address to link (`href`). */
interface TextPart {
  text: string;
  href?: string;
}

const URL_PATTERN = /https?:\/\/[^\s<>"]+/gi;
/** What ends a sentence rather than an address: 'see https://x.test/a.' links https://x.test/a. */
const TRAILING = /[.,;:!?'"…*]+$/;

/** Closing brackets the address did not open are the sentence's: '(https://x.test/a)'. */
function trimEnd(url: string): string {
  let out = url;
  for (;;) {
    const next = out.replace(TRAILING, '');
    const close = next.at(-1);
    const open = close === ')' ? '(' : close === ']' ? '[' : null;
    if (open && next.split(open).length < next.split(close!).length) out = next.slice(0, -1);
    else if (next !== out) out = next;
    else return out;
  }
}

function isWebAddress(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The text split into plain parts and http/https addresses. `cut`: the text was shortened at its
 * end, so an address that runs into the end may be only part of one, and stays plain text.
 */
export function entryTextParts(text: string, { cut = false } = {}): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = trimEnd(match[0]);
    const end = match.index + url.length;
    const runsIntoCut = cut && text.slice(end).replace(TRAILING, '') === '';
    if (!isWebAddress(url) || runsIntoCut) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ text: url, href: url });
    last = end;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
