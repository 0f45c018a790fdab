import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { searchMarkRanges } from './search-marks';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const WEB_LINK = /^(?:https?:|mailto:)/i;

/**
 * An entry's Markdown (Day One's **bold**, lists, code, - [ ] tasks), safe as it is rendered: HTML
 * typed into an entry shows as the characters typed; links go only to web and mail addresses, in a
 * new tab; images are left as their text (an entry's photos are shown apart, and a remote image would
 * tell its host who reads); headings sit below the card's own (h2 day, h3 title). The sanitiser
 * after it is a second guard, not the only one.
 */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    heading({ tokens }: Tokens.Heading) {
      return `<h4>${this.parser.parseInline(tokens)}</h4>\n`;
    },
    link({ href, tokens }: Tokens.Link) {
      const text = this.parser.parseInline(tokens);
      if (!WEB_LINK.test(href)) return text;
      return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${text}</a>`;
    },
    image: ({ text }: Tokens.Image) => escapeHtml(text),
  },
});

const ALLOWED_TAGS = ['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h4', 'a', 'hr', 'input', 'table', 'thead', 'tbody', 'tr', 'th', 'td'];
const ALLOWED_ATTR = ['href', 'target', 'rel', 'type', 'checked', 'disabled', 'start', 'align'];

let hooked = false;
function sanitizer() {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
      // The only inputs are Markdown's task boxes (HTML typed into an entry is escaped): read-only boxes.
      if (node.tagName === 'INPUT') {
        node.setAttribute('type', 'checkbox');
        node.setAttribute('disabled', '');
      }
    });
  }
  return DOMPurify;
}

/** Wraps each search hit in the fragment's text in <mark>. */
function markTerms(root: DocumentFragment, terms: readonly string[]) {
  if (terms.length === 0) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const node of texts) {
    const ranges = searchMarkRanges(node.data, terms);
    for (const [start, end] of ranges.reverse()) {
      const hit = node.splitText(start);
      hit.splitText(end - start);
      const mark = document.createElement('mark');
      hit.replaceWith(mark);
      mark.append(hit);
    }
  }
}

/** The entry's Markdown as sanitised HTML, search hits marked. */
export function renderMarkdown(text: string, terms: readonly string[] = []): string {
  const html = markdown.parse(text, { async: false });
  const fragment = sanitizer().sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP: WEB_LINK, RETURN_DOM_FRAGMENT: true });
  markTerms(fragment, terms);
  const holder = document.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}
