import fontkit from '@pdf-lib/fontkit';
import { lexer, type Token, type Tokens } from 'marked';
import {
  beginText,
  degrees,
  drawImage,
  drawLine,
  endText,
  PDFDocument,
  PDFHexString,
  type PDFName,
  type PDFOperator,
  rgb,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  type Color,
  type PDFFont,
  type PDFImage,
  type PDFPage,
} from 'pdf-lib';
import { entryCount, entryMeta, exportedLabel, formatDay, rangeLabel, voiceNoteLines, zoneLabel, type ExportEntry, type ExportInput } from './export-render';
import { COLORS, MARGIN, PAGE_HEIGHT, PAGE_WIDTH, PHOTO_CELL_MAX_HEIGHT, PHOTO_GAP, photoGrid, photoPixels } from './pdf-layout';
import { PdfStreamWriter } from './pdf-writer';

// The journal's PDF, drawn with pdf-lib: by the server in its PDF workers (src/server/export/
// pdf-worker/) and by the browser for a Vault journal, where it is unlocked
// (src/web/features/vault/journal/pdf-export.ts). pdf-lib places text by hand, so the text flow the
// journal needs (styled runs, wrapping, a new page at the bottom margin) is written out here.

const INK = hex(COLORS.ink);
const MUTED = hex(COLORS.muted);
const ACCENT = hex(COLORS.accent);
const RULE = hex(COLORS.rule);

function hex(color: string): Color {
  const n = Number.parseInt(color.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/**
 * The faces a journal PDF sets text in: DejaVu Sans (any script the journal is written in prints),
 * its mono face for code, and Noto Emoji for emoji, which DejaVu mostly lacks.
 */
export type PdfFace = 'regular' | 'bold' | 'oblique' | 'boldOblique' | 'mono' | 'emoji';

/** Each face's file, as its package ships it (dejavu-fonts-ttf, @expo-google-fonts/noto-emoji). */
export const PDF_FONT_FILES: Record<PdfFace, string> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  oblique: 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf',
  boldOblique: 'dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf',
  mono: 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf',
  emoji: '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf',
};

export interface PdfSources<Photo> {
  /** A face's TTF bytes; asked for only the faces the journal uses (the emoji face only for emoji). */
  font(face: PdfFace): Promise<Uint8Array>;
  /** A photo's bytes, or null when it cannot be read (it is then left out). */
  photo(photo: Photo): Promise<Uint8Array | null>;
  /** A picture pdf-lib cannot embed (a webp, a GIF) or one too large, as a JPEG at most `maxPixels` on a side; null when it cannot be decoded. */
  reencode?(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array | null>;
}

interface Face {
  font: PDFFont;
  /** Vertical metrics in ems, read from the same file. */
  ascent: number;
  lineHeight: number;
  has(codePoint: number): boolean;
}

/** The part of @pdf-lib/fontkit's TrueType subset the padding below reaches into. */
interface SubsetInternals {
  glyf: Uint8Array[];
  offset: number;
  _addGlyph(gid: number): number;
}

let subsetsPadded = false;

/**
 * pdf-lib's font engine (@pdf-lib/fontkit, a fork from before upstream fontkit 1.8 fixed it) writes
 * a subset's glyph offsets in TrueType's short form, which halves them, without padding each glyph
 * to an even length: every glyph after an odd-length one is read from the wrong place and drawn
 * blank (a 🔒, a ☑), though its text is there. Each glyph is padded as the format asks.
 */
function padSubsetGlyphs(font: { createSubset(): unknown }) {
  if (subsetsPadded) return;
  subsetsPadded = true;
  const subset = Object.getPrototypeOf(font.createSubset()) as SubsetInternals;
  const addGlyph = subset._addGlyph;
  subset._addGlyph = function (this: SubsetInternals, gid: number) {
    const index = addGlyph.call(this, gid);
    const glyph = this.glyf[index]!;
    if (glyph.length % 2) {
      // Of the glyph's own type (the engine's Buffer: Node's, or its polyfill in a browser), which its encoder takes.
      const type = glyph.constructor as unknown as { alloc?(size: number): Uint8Array };
      const padded = type.alloc ? type.alloc(glyph.length + 1) : new Uint8Array(glyph.length + 1);
      padded.set(glyph);
      this.glyf[index] = padded;
      this.offset += 1;
    }
    return index;
  };
}

/**
 * pdf-lib shapes each line it draws through fontkit whole, and a journal is mostly the same words
 * again: each word is shaped once a document instead (as pdfkit did), and a line is its words'
 * glyphs. Nothing a font joins (a ligature, an emoji sequence) spans a space.
 */
function shapeWordsOnce(font: PDFFont): PDFFont {
  const encode = font.encodeText.bind(font);
  const words = new Map<string, string>();
  const hexOf = (word: string) => {
    let hex = words.get(word);
    if (hex === undefined) words.set(word, (hex = word ? encode(word).asString() : ''));
    return hex;
  };
  const space = hexOf(' ');
  const width = font.widthOfTextAtSize.bind(font);
  const widths = new Map<string, number>();
  const widthOf = (word: string) => {
    let w = widths.get(word);
    if (w === undefined) widths.set(word, (w = word ? width(word, 1) : 0));
    return w;
  };
  const spaceWidth = widthOf(' ');
  font.encodeText = (text: string) => PDFHexString.of(text.split(' ').map(hexOf).join(space));
  font.widthOfTextAtSize = (text: string, size: number) => text.split(' ').reduce((sum, word, i) => sum + widthOf(word) + (i ? spaceWidth : 0), 0) * size;
  return font;
}

/** The faces of one document, embedded (as subsets) the first time a text needs them. */
class Faces {
  private readonly loaded = new Map<PdfFace, Face>();

  constructor(
    private readonly doc: PDFDocument,
    private readonly files: (face: PdfFace) => Promise<Uint8Array>,
  ) {
    doc.registerFontkit(fontkit);
  }

  async load(names: Iterable<PdfFace>): Promise<void> {
    for (const name of names) {
      if (this.loaded.has(name)) continue;
      const file = await this.files(name);
      const metrics = fontkit.create(file);
      padSubsetGlyphs(metrics);
      const scale = 1 / metrics.unitsPerEm;
      // Subset: a journal uses a few hundred of DejaVu's 6,000 glyphs; a whole face is 700 KB.
      this.loaded.set(name, {
        font: shapeWordsOnce(await this.doc.embedFont(file, { subset: true })),
        ascent: metrics.ascent * scale,
        // pdfkit's line height, which the layout was made with: ascender, line gap and descender.
        lineHeight: (metrics.ascent + metrics.lineGap - metrics.descent) * scale,
        has: (codePoint) => metrics.hasGlyphForCodePoint(codePoint),
      });
    }
  }

  get(name: PdfFace): Face {
    const face = this.loaded.get(name);
    if (!face) throw new Error(`The PDF face ${name} was not loaded`);
    return face;
  }

  has(name: PdfFace): boolean {
    return this.loaded.has(name);
  }
}

/** A piece of text in one style; `emoji` runs are set in the emoji face. */
interface Span {
  text: string;
  style: TextStyle;
}

type TextStyle = 'regular' | 'bold' | 'oblique' | 'boldOblique' | 'mono';

/** Emoji: a pictograph with its presentation selector, skin tone and joined pictographs (👨‍👩‍👧), or a flag. */
const EMOJI = /\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*)*|\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3/gu;

/** A run of text as drawn: one face, one size, one colour. */
interface Run {
  text: string;
  face: PdfFace;
}

/**
 * Text in a style as the faces can draw it: emoji in the emoji face (a sequence it has no glyph for
 * by its first symbol), anything else in the style's face, and a character neither draws as '?', so
 * a word is never lost.
 */
function runsOf(spans: readonly Span[], faces: Faces): Run[] {
  const runs: Run[] = [];
  const push = (text: string, face: PdfFace) => {
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += text;
    else runs.push({ text, face });
  };
  for (const span of spans) {
    const face = faces.get(span.style);
    const plain = (text: string) => {
      let out = '';
      // Variation selectors and joiners outside an emoji print nothing on their own; a tab is a space in a line of text.
      for (const ch of text.replace(/[\uFE0E\uFE0F\u200D]/g, '').replace(/\t/g, '    ')) out += ch === '\n' || face.has(ch.codePointAt(0)!) ? ch : '?';
      if (out) push(out, span.style);
    };
    let at = 0;
    for (const match of span.text.matchAll(EMOJI)) {
      plain(span.text.slice(at, match.index));
      at = match.index + match[0].length;
      const emoji = faces.has('emoji') ? faces.get('emoji') : null;
      const first = match[0].codePointAt(0)!;
      if (emoji?.has(first)) push(match[0], 'emoji');
      else plain(String.fromCodePoint(first));
    }
    plain(span.text.slice(at));
  }
  return runs;
}

/** Whether any of these texts holds an emoji (the emoji face is loaded only then). */
const hasEmoji = (texts: readonly string[]) => texts.some((text) => new RegExp(EMOJI.source, 'u').test(text));

interface TextOptions {
  size: number;
  color: Color;
  /** Space from the left margin to the text. */
  indent?: number;
  align?: 'left' | 'center';
  /** Extra space under each line, and under each paragraph, as pdfkit's options of those names. */
  lineGap?: number;
  paragraphGap?: number;
  /** Set before the first line, in the space of the indent (a list's bullet). */
  marker?: Run[];
}

/** A word (what lies between spaces) made of runs, and the space before it. */
interface Word {
  runs: Run[];
  width: number;
  space: Run | null;
  spaceWidth: number;
}

/**
 * The pages being written, with a cursor: `y` from the top of the page. A page's drawing is kept
 * here and goes into the document as its content when the page is done, so a page written out is
 * held nowhere after.
 */
class Flow {
  page: PDFPage;
  y = MARGIN;
  private operators: PDFOperator[] = [];
  private readonly fontKeys = new Map<PdfFace, PDFName>();

  constructor(
    private readonly doc: PDFDocument,
    readonly faces: Faces,
  ) {
    this.page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  }

  get bottom() {
    return PAGE_HEIGHT - MARGIN;
  }

  addPage() {
    this.endPage();
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.fontKeys.clear();
    this.y = MARGIN;
  }

  /** The page's drawing into the document, as its content. */
  endPage() {
    if (!this.operators.length) return;
    this.page.node.addContentStream(this.doc.context.register(this.doc.context.contentStream(this.operators)));
    this.operators = [];
  }

  /** A face's name in the page's resources, one a face (pdf-lib's drawText adds one for every call). */
  private fontKey(name: PdfFace): PDFName {
    let key = this.fontKeys.get(name);
    if (!key) {
      const { font } = this.faces.get(name);
      this.fontKeys.set(name, (key = this.page.node.newFontDictionary(font.name, font.ref)));
    }
    return key;
  }

  /** pdfkit's moveDown: `lines` lines of `face` at `size`. */
  moveDown(lines: number, size: number, face: PdfFace = 'regular'): this {
    this.y += this.faces.get(face).lineHeight * size * lines;
    return this;
  }

  width(run: Run, size: number): number {
    return this.faces.get(run.face).font.widthOfTextAtSize(run.text, size);
  }

  /** A line of runs broken into words at spaces. */
  private words(runs: readonly Run[], size: number): Word[] {
    const words: Word[] = [{ runs: [], width: 0, space: null, spaceWidth: 0 }];
    for (const run of runs) {
      run.text.split(' ').forEach((piece, i) => {
        if (i > 0) {
          const space = { text: ' ', face: run.face };
          words.push({ runs: [], width: 0, space, spaceWidth: this.width(space, size) });
        }
        if (piece) {
          const part = { text: piece, face: run.face };
          words[words.length - 1]!.runs.push(part);
          words[words.length - 1]!.width += this.width(part, size);
        }
      });
    }
    return words;
  }

  /** A word wider than the line, cut where it must be (never inside an emoji). */
  private cut(word: Word, width: number, size: number): Word[] {
    const pieces: Word[] = [];
    let current: Word = { runs: [], width: 0, space: word.space, spaceWidth: word.spaceWidth };
    for (const run of word.runs) {
      const clusters = run.face === 'emoji' ? [run.text] : [...run.text];
      for (const text of clusters) {
        const part = { text, face: run.face };
        const partWidth = this.width(part, size);
        if (current.runs.length && current.width + partWidth > width) {
          pieces.push(current);
          current = { runs: [], width: 0, space: null, spaceWidth: 0 };
        }
        const last = current.runs[current.runs.length - 1];
        if (last && last.face === part.face) last.text += text;
        else current.runs.push(part);
        current.width += partWidth;
      }
    }
    pieces.push(current);
    return pieces;
  }

  /** A paragraph's lines: broken at spaces, and a word wider than the line broken where it must be. */
  private lines(runs: readonly Run[], width: number, size: number): Word[][] {
    const lines: Word[][] = [];
    let line: Word[] = [];
    let lineWidth = 0;
    for (const word of this.words(runs, size)) {
      const pieces = word.width > width ? this.cut(word, width, size) : [word];
      for (const piece of pieces) {
        if (line.length && lineWidth + piece.spaceWidth + piece.width <= width) {
          line.push(piece);
          lineWidth += piece.spaceWidth + piece.width;
          continue;
        }
        if (line.length) lines.push(line);
        // A line starts with its first word, without the space that broke it.
        line = [{ ...piece, space: null, spaceWidth: 0 }];
        lineWidth = piece.width;
      }
    }
    // An empty paragraph is an empty line, as in pdfkit.
    lines.push(line);
    return lines;
  }

  /** Writes runs from the cursor down, a paragraph per line break, wrapped to the width, going on to a new page at the bottom margin. */
  text(runs: readonly Run[], options: TextOptions): this {
    const indent = options.indent ?? 0;
    const width = PAGE_WIDTH - 2 * MARGIN - indent;
    const regular = this.faces.get('regular');
    const lineHeight = regular.lineHeight * options.size + (options.lineGap ?? 0);
    let marker = options.marker;
    for (const paragraph of splitLines(runs)) {
      for (const line of this.lines(paragraph, width, options.size)) {
        if (this.y + lineHeight > this.bottom && this.y > MARGIN) this.addPage();
        // Adjacent pieces in one face are drawn as one string: a line reads back as it was written.
        const drawn: Run[] = [];
        for (const word of line) {
          for (const run of word.space ? [word.space, ...word.runs] : word.runs) {
            const last = drawn[drawn.length - 1];
            if (last && last.face === run.face) last.text += run.text;
            else drawn.push({ ...run });
          }
        }
        const lineWidth = drawn.reduce((sum, run) => sum + this.width(run, options.size), 0);
        const x = MARGIN + indent + (options.align === 'center' ? (width - lineWidth) / 2 : 0);
        const baseline = this.y + regular.ascent * options.size;
        if (marker) {
          const markerWidth = marker.reduce((sum, run) => sum + this.width(run, options.size), 0);
          this.draw(marker, MARGIN + indent - markerWidth, baseline, options);
          marker = undefined;
        }
        this.draw(drawn, x, baseline, options);
        this.y += lineHeight;
      }
      this.y += options.paragraphGap ?? 0;
    }
    return this;
  }

  /** One line's runs, each in its face, on one baseline. */
  private draw(runs: readonly Run[], x: number, baseline: number, options: TextOptions) {
    const operators = [beginText(), setFillingColor(options.color)];
    for (const run of runs) {
      if (run.text) {
        const { font } = this.faces.get(run.face);
        operators.push(setFontAndSize(this.fontKey(run.face), options.size), setTextMatrix(1, 0, 0, 1, x, PAGE_HEIGHT - baseline), showText(font.encodeText(run.text)));
      }
      x += this.width(run, options.size);
    }
    operators.push(endText());
    this.operators.push(...operators);
  }

  rule(indent = 0) {
    this.operators.push(...drawLine({ start: { x: MARGIN + indent, y: PAGE_HEIGHT - this.y }, end: { x: PAGE_WIDTH - MARGIN, y: PAGE_HEIGHT - this.y }, thickness: 0.5, color: RULE }));
  }

  image(image: PDFImage, x: number, top: number, width: number, height: number) {
    const name = this.page.node.newXObject('Image', image.ref);
    this.operators.push(...drawImage(name, { x: MARGIN + x, y: PAGE_HEIGHT - top - height, width, height, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) }));
  }
}

/** Runs split at line breaks, one list of runs per line. */
function splitLines(runs: readonly Run[]): Run[][] {
  const lines: Run[][] = [[]];
  for (const run of runs) {
    run.text.split('\n').forEach((text, i) => {
      if (i > 0) lines.push([]);
      if (text) lines[lines.length - 1]!.push({ text, face: run.face });
    });
  }
  return lines;
}

// An entry's Markdown (what Day One writes: **bold**, lists, code, - [ ] tasks), as blocks of styled
// text. Nothing in it is run or fetched: a link prints its words and where it goes, an image its
// description, HTML as the text it is.

type Block =
  | { kind: 'text'; spans: Span[]; size: number; indent: number; marker?: Span[]; color?: 'muted' }
  | { kind: 'rule'; indent: number };

const BODY_SIZE = 11.5;
const HEADING_SIZES = [15, 13.5, 12.5, 12, 11.5, 11.5];
const LIST_INDENT = 16;
const CODE_SIZE = 10;

const withBold = (style: TextStyle): TextStyle => (style === 'oblique' || style === 'boldOblique' ? 'boldOblique' : style === 'mono' ? 'mono' : 'bold');
const withOblique = (style: TextStyle): TextStyle => (style === 'bold' || style === 'boldOblique' ? 'boldOblique' : style === 'mono' ? 'mono' : 'oblique');

function inlineSpans(tokens: readonly Token[] | undefined, style: TextStyle, out: Span[] = []): Span[] {
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        inlineSpans(token.tokens, withBold(style), out);
        break;
      case 'em':
        inlineSpans(token.tokens, withOblique(style), out);
        break;
      case 'codespan':
        out.push({ text: token.text, style: 'mono' });
        break;
      case 'br':
        out.push({ text: '\n', style });
        break;
      case 'checkbox':
        // A task's box: its list item's marker.
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const before = out.length;
        inlineSpans(link.tokens, style, out);
        const words = out.slice(before).map((s) => s.text).join('');
        if (link.href && link.href !== words && `mailto:${words}` !== link.href) out.push({ text: ` (${link.href})`, style });
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        if (image.text) out.push({ text: `[${image.text}]`, style });
        break;
      }
      case 'text':
      case 'del':
        if ('tokens' in token && token.tokens?.length) inlineSpans(token.tokens, style, out);
        else out.push({ text: token.text, style });
        break;
      default:
        // escape, html and anything newer: the text as written.
        out.push({ text: 'text' in token && typeof token.text === 'string' ? token.text : token.raw, style });
    }
  }
  return out;
}

function blocksOf(tokens: readonly Token[], indent: number, out: Block[], muted = false): Block[] {
  const color = muted ? ('muted' as const) : undefined;
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
      case 'checkbox':
        break;
      case 'heading':
        out.push({ kind: 'text', spans: inlineSpans(token.tokens, 'bold'), size: HEADING_SIZES[token.depth - 1] ?? BODY_SIZE, indent, color });
        break;
      case 'paragraph':
      case 'text':
        out.push({ kind: 'text', spans: token.tokens?.length ? inlineSpans(token.tokens, 'regular') : [{ text: token.text, style: 'regular' }], size: BODY_SIZE, indent, color });
        break;
      case 'code':
        out.push({ kind: 'text', spans: [{ text: token.text.replace(/\t/g, '    '), style: 'mono' }], size: CODE_SIZE, indent: indent + 12, color });
        break;
      case 'blockquote':
        blocksOf(token.tokens ?? [], indent + 12, out, true);
        break;
      case 'hr':
        out.push({ kind: 'rule', indent });
        break;
      case 'list': {
        const list = token as Tokens.List;
        const start = typeof list.start === 'number' ? list.start : 1;
        list.items.forEach((item, i) => {
          const marker = item.task ? (item.checked ? '☑' : '☐') : list.ordered ? `${start + i}.` : '•';
          const first = out.length;
          blocksOf(item.tokens, indent + LIST_INDENT, out, muted);
          const head = out[first];
          // Set in the indent, before the item's first line, with a space after it.
          const markerSpans = [{ text: `${marker} `, style: 'regular' as const }];
          if (head?.kind === 'text') head.marker = markerSpans;
          else out.splice(first, 0, { kind: 'text', spans: [], size: BODY_SIZE, indent: indent + LIST_INDENT, marker: markerSpans, color });
        });
        break;
      }
      case 'table': {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[], style: TextStyle) => cells.flatMap((cell, i) => [...(i ? [{ text: '  |  ', style: 'regular' as const }] : []), ...inlineSpans(cell.tokens, style)]);
        out.push({ kind: 'text', spans: row(table.header, 'bold'), size: BODY_SIZE, indent, color });
        for (const cells of table.rows) out.push({ kind: 'text', spans: row(cells, 'regular'), size: BODY_SIZE, indent, color });
        break;
      }
      default:
        // html, a link definition and anything newer: the words as written, never lost.
        out.push({ kind: 'text', spans: [{ text: token.raw.replace(/\n+$/, ''), style: 'regular' }], size: BODY_SIZE, indent, color });
    }
  }
  return out;
}

/** An entry's text as blocks: its Markdown read by marked's lexer (GitHub's flavour, a line break kept as one). */
function markdownBlocks(content: string): Block[] {
  return blocksOf(lexer(content.replace(/\r\n?/g, '\n'), { gfm: true, breaks: true }), 0, []);
}

/** The styles a list of blocks is set in, and whether it has emoji. */
function facesOf(blocks: readonly Block[]): Set<PdfFace> {
  const faces = new Set<PdfFace>();
  for (const block of blocks) {
    if (block.kind !== 'text') continue;
    for (const span of [...block.spans, ...(block.marker ?? [])]) faces.add(span.style);
  }
  if (hasEmoji(blocks.flatMap((b) => (b.kind === 'text' ? b.spans.map((s) => s.text) : [])))) faces.add('emoji');
  return faces;
}

type Picture = { kind: 'jpeg' | 'png'; width: number; height: number } | { kind: 'other' };

/** A picture's format, and a JPEG's or PNG's size in pixels from its header. */
export function pictureOf(bytes: Uint8Array): Picture {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length > 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(12) === 0x49484452) {
    return { kind: 'png', width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length > 4 && view.getUint16(0) === 0xffd8) {
    // Walk the segments to the frame header (SOF0–SOF15, less DHT, JPG and DAC).
    let at = 2;
    while (at + 9 < bytes.length && bytes[at] === 0xff) {
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { kind: 'jpeg', height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
      }
      at += 2 + view.getUint16(at + 2);
    }
  }
  return { kind: 'other' };
}

const embedAsIs = (doc: PDFDocument, bytes: Uint8Array, kind: 'jpeg' | 'png') => (kind === 'jpeg' ? doc.embedJpg(bytes) : doc.embedPng(bytes)).catch(() => null);

/**
 * A photo in the document, at most `maxPixels` on a side when it can be made so (a smaller file);
 * null when it cannot be read, and it is left out. A JPEG or PNG small enough goes in as it is; any
 * other goes through `reencode`.
 */
async function embedPhoto<Photo>(doc: PDFDocument, bytes: Uint8Array, maxPixels: number, sources: PdfSources<Photo>): Promise<PDFImage | null> {
  const picture = pictureOf(bytes);
  const fits = picture.kind !== 'other' && picture.width > 0 && picture.height > 0 && Math.max(picture.width, picture.height) <= maxPixels;
  if (fits) {
    const image = await embedAsIs(doc, bytes, picture.kind);
    if (image) return image;
  }
  const jpeg = await sources.reencode?.(bytes, maxPixels).catch(() => null);
  if (jpeg) return doc.embedJpg(jpeg).catch(() => null);
  // Too large, and nothing here to make it smaller: whole, rather than not at all.
  return picture.kind !== 'other' && !fits ? embedAsIs(doc, bytes, picture.kind) : null;
}

const plain = (text: string, style: TextStyle = 'regular'): Span[] => [{ text, style }];

/** The title page: 'Journal', the range, the count, when it was exported and in which zone. */
function titlePage(flow: Flow, input: ExportInput) {
  const centred = (text: string, size: number, style: TextStyle, color: Color) => flow.text(runsOf(plain(text, style), flow.faces), { size, color, align: 'center' });
  // Eight lines of Helvetica 12 (pdfkit's first font) above the title, as the PDF always had.
  flow.y += 8 * 13.872;
  centred('Journal', 34, 'bold', INK);
  flow.moveDown(0.5, 34);
  centred(rangeLabel(input.from, input.to), 13, 'regular', MUTED);
  for (const line of [entryCount(input.entries.length), exportedLabel(input), zoneLabel(input.timezone)]) {
    flow.moveDown(0.3, 13);
    centred(line, 13, 'regular', MUTED);
  }
}

const ENTRIES_BETWEEN_PAUSES = 25;

/**
 * The journal as a PDF: a title page, then one section per entry with its date heading, time,
 * title, tags, text (its Markdown drawn) and, when asked for, photos. Its bytes go to `write` as
 * the pages are made, and the file is whole when this resolves.
 */
export async function renderPdf<Entry extends ExportEntry>(
  input: ExportInput<Entry>,
  sources: PdfSources<Entry['photos'][number]>,
  write: (bytes: Uint8Array) => void | Promise<void>,
): Promise<void> {
  const doc = await PDFDocument.create();
  const writer = new PdfStreamWriter(doc, write);
  await writer.start();
  doc.setTitle('Journal');
  doc.setCreator('Jotline');
  doc.setCreationDate(input.exportedAt);
  doc.setModificationDate(input.exportedAt);
  const faces = new Faces(doc, sources.font);
  await faces.load(['regular', 'bold']);
  const width = PAGE_WIDTH - 2 * MARGIN;
  const flow = new Flow(doc, faces);
  const runs = (text: string, style: TextStyle) => runsOf(plain(text, style), faces);
  titlePage(flow, input);
  flow.addPage();
  for (const [index, entry] of input.entries.entries()) {
    // Now and then, the pages made so far go out, and a pause: a long journal does not hold the
    // thread (a tab, a worker's messages) for its whole length.
    if (index % ENTRIES_BETWEEN_PAUSES === ENTRIES_BETWEEN_PAUSES - 1) {
      await writer.flush();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const blocks = entry.content ? markdownBlocks(entry.content) : [];
    const needed = facesOf(blocks);
    if (entry.tags.length || entry.recordings?.length) needed.add('oblique');
    if (hasEmoji([entry.title ?? '', ...entry.tags])) needed.add('emoji');
    await faces.load(needed);
    // Keep a heading with at least a few lines of its entry (or, for a short entry, its first photos).
    const photosFollowSoon = input.photos && entry.photos.length > 0 && entry.content.length < 300;
    if (index > 0 && flow.y > flow.bottom - (photosFollowSoon ? 100 + PHOTO_CELL_MAX_HEIGHT : 120)) flow.addPage();
    else if (index > 0) {
      flow.moveDown(0.8, BODY_SIZE);
      flow.rule();
      flow.moveDown(0.8, BODY_SIZE);
    }
    flow.text(runs(formatDay(entry.entry_date), 'bold'), { size: 15, color: INK });
    flow.text(runs(entryMeta(entry, input.timezone), 'regular'), { size: 9, color: MUTED });
    if (entry.title) flow.moveDown(0.4, 12.5, 'bold').text(runs(entry.title, 'bold'), { size: 12.5, color: INK });
    if (entry.tags.length) flow.moveDown(0.2, 9).text(runs(entry.tags.map((t) => `#${t}`).join('  '), 'oblique'), { size: 9, color: ACCENT });
    if (blocks.length) flow.moveDown(0.5, BODY_SIZE);
    for (const block of blocks) {
      if (block.kind === 'rule') {
        flow.moveDown(0.3, BODY_SIZE).rule(block.indent);
        flow.moveDown(0.5, BODY_SIZE);
        continue;
      }
      flow.text(runsOf(block.spans, faces), {
        size: block.size,
        color: block.color === 'muted' ? MUTED : INK,
        indent: block.indent,
        lineGap: 3,
        paragraphGap: 4,
        marker: block.marker && runsOf(block.marker, faces),
      });
    }
    for (const line of voiceNoteLines(entry)) flow.moveDown(0.2, 10).text(runs(line, 'oblique'), { size: 10, color: MUTED });
    if (input.photos && entry.photos.length) {
      const maxPixels = photoPixels(entry.photos.length);
      const images: PDFImage[] = [];
      for (const photo of entry.photos) {
        const bytes = await sources.photo(photo);
        const image = bytes && (await embedPhoto(doc, bytes, maxPixels, sources));
        if (!image) continue;
        // Into the document now, so the photo's bytes can go out with the next pages and be let go.
        await image.embed();
        images.push(image);
      }
      flow.moveDown(0.5, BODY_SIZE);
      for (const row of photoGrid(images, width)) {
        // A new page only when the row does not fit in what is left of this one.
        if (flow.y + row.height > flow.bottom) flow.addPage();
        const top = flow.y;
        for (const placed of row.photos) flow.image(images.shift()!, placed.x, top + placed.y, placed.width, placed.height);
        flow.y = top + row.height + PHOTO_GAP;
      }
      await writer.flush();
    }
  }
  flow.endPage();
  await writer.end();
}
