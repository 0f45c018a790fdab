/**
 * Whether a text uses Markdown (Day One writes it): emphasis, code, headings, lists, task boxes,
 * quotes or links. Plain texts stay plain text, and never wait for the Markdown renderer's code.
 */
const MARKDOWN = [
  /\*\*[^*\n]+\*\*|__[^_\n]+__/, // **bold**, __bold__
  /(^|[\s(])[*_][^*_\s][^*_\n]*[*_](?=$|[\s).,;:!?])/m, // *italic*
  /`[^`\n]+`/, // `code`
  /^ {0,3}(#{1,6} |> |[-*+] |\d{1,9}[.)] |```|~~~)/m, // headings, quotes, lists, fences
  /\[[^\]\n]+\]\([^)\s]+\)/, // [text](address)
  /~~[^~\n]+~~/, // ~~strike~~
];

export function looksLikeMarkdown(text: string): boolean {
  return MARKDOWN.some((pattern) => pattern.test(text));
}
