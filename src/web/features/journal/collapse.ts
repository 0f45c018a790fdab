/** Spec 2: a long entry shows its first 4 lines or 200 characters, followed by an ellipsis. */
export const COLLAPSED_LINES = 4;
export const COLLAPSED_CHARS = 200;

export interface CollapsedText {
  text: string;
  truncated: boolean;
}

export function collapseText(content: string): CollapsedText {
  const lines = content.split('\n');
  let text = lines.slice(0, COLLAPSED_LINES).join('\n');
  let truncated = lines.length > COLLAPSED_LINES;
  if (text.length > COLLAPSED_CHARS) {
    text = text.slice(0, COLLAPSED_CHARS);
    truncated = true;
  }
  return truncated ? { text: `${text.trimEnd()}…`, truncated } : { text, truncated };
}
