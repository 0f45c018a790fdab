/** Spec 2: a long entry shows its first 4 lines or 200 characters, followed by an ellipsis. */
const COLLAPSED_LINES = 4;
const COLLAPSED_CHARS = 200;

interface CollapsedText {
  text: string;
  truncated: boolean;
}

/** Marks the ellipsis replaces rather than follows: 'well.' → 'well…', never 'well.…'. */
const TRAILING_MARKS = /[\s.,;:!?…–—-]+$/u;

export function collapseText(content: string): CollapsedText {
  const lines = content.split('\n');
  let text = lines.slice(0, COLLAPSED_LINES).join('\n');
  let truncated = lines.length > COLLAPSED_LINES;
  if (text.length > COLLAPSED_CHARS) {
    // Never between the two halves of an emoji or other character outside the BMP.
    const end = /[\uD800-\uDBFF]/.test(text[COLLAPSED_CHARS - 1]!) ? COLLAPSED_CHARS - 1 : COLLAPSED_CHARS;
    text = text.slice(0, end);
    truncated = true;
  }
  return truncated ? { text: `${text.replace(TRAILING_MARKS, '')}…`, truncated } : { text, truncated };
}
