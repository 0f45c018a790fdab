import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What a journal PDF sets in which font. */
type PdfFontRole = 'heading' | 'meta' | 'tags' | 'body';

/** The fonts registered in one document, by role, and how to make text printable in each. */
export interface PdfFonts {
  /** Names to hand to doc.font(). */
  names: Record<PdfFontRole, string>;
  /** The text as the role's font can print it. */
  printable(role: PdfFontRole, text: string): string;
  /** True when set in wide-coverage embedded fonts; false with the PDF built-ins. */
  unicode: boolean;
}

const EMOJI = /\p{Extended_Pictographic}(\uFE0F|\u200D\p{Extended_Pictographic}|\p{Emoji_Modifier})*/gu;

// The built-in PDF fonts cover Latin-1 and the Windows-1252 extras only: emoji are left out and
// any other character becomes '?', rather than printing as garbage.
const WIN_ANSI_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
export function toPdfText(text: string): string {
  return text
    .replace(EMOJI, '')
    .replace(/[\uFE0F\u200D]/g, '')
    .replace(/[^\n\t\x20-\x7e\xa0-\xff]/gu, (ch) => (WIN_ANSI_EXTRAS.includes(ch) ? ch : '?'));
}

/** The part of a fontkit font we use. */
interface GlyphCoverage {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

/** Text as one embedded font can print it: emoji it lacks are left out, other missing characters become '?'. */
function printableIn(font: GlyphCoverage, text: string): string {
  const has = (ch: string) => font.hasGlyphForCodePoint(ch.codePointAt(0)!);
  // An emoji sequence cannot be composed here: keep its first symbol when the font draws it.
  const emojiDone = text.replace(EMOJI, (sequence) => {
    const first = String.fromCodePoint(sequence.codePointAt(0)!);
    return has(first) ? first : '';
  });
  // Joiners and variation selectors print nothing on their own.
  return [...emojiDone.replace(/[\uFE0F\u200D]/g, '')].map((ch) => (ch === '\n' || ch === '\t' || has(ch) ? ch : '?')).join('');
}

const BUILT_IN: Record<PdfFontRole, string> = { heading: 'Helvetica-Bold', meta: 'Helvetica', tags: 'Helvetica-Oblique', body: 'Times-Roman' };

/** DejaVu faces per role (dejavu-fonts-ttf's face and style names). Sans throughout: DejaVu Serif has no Hebrew or Arabic. */
const DEJAVU: Record<PdfFontRole, [face: string, style?: string]> = {
  heading: ['DejaVuSans', 'Bold'],
  meta: ['DejaVuSans'],
  tags: ['DejaVuSans', 'Oblique'],
  body: ['DejaVuSans'],
};

interface LoadedFont {
  /** The name it is registered under in a document: one per face, so each is embedded once. */
  name: string;
  file: Buffer;
  coverage: GlyphCoverage;
}

let unicodeFonts: Record<PdfFontRole, LoadedFont> | null | undefined;

/**
 * The DejaVu fonts (wide coverage: Latin, Greek, Cyrillic, Hebrew, Arabic, Armenian, Georgian,
 * many symbols) when their package is installed, read once; null when it is not.
 */
function loadUnicodeFonts(): Record<PdfFontRole, LoadedFont> | null {
  if (unicodeFonts !== undefined) return unicodeFonts;
  try {
    const require = createRequire(import.meta.url);
    // The package is only the font files: ttf/<Face>[-<Style>].ttf beside its package.json.
    const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    // pdfkit's own font engine, to ask which characters a font draws.
    const fontkit = require('fontkit') as { create(file: Buffer): GlyphCoverage };
    const faces = new Map<string, LoadedFont>();
    const load = ([face, style]: [string, string?]): LoadedFont => {
      const name = style ? `${face}-${style}` : face;
      if (!faces.has(name)) {
        const file = readFileSync(join(fontDir, `${name}.ttf`));
        faces.set(name, { name, file, coverage: fontkit.create(file) });
      }
      return faces.get(name)!;
    };
    unicodeFonts = { heading: load(DEJAVU.heading), meta: load(DEJAVU.meta), tags: load(DEJAVU.tags), body: load(DEJAVU.body) };
  } catch {
    unicodeFonts = null;
  }
  return unicodeFonts;
}

/** Registers the journal's fonts in a document: DejaVu when installed, else the PDF built-ins. */
export function registerPdfFonts(doc: PDFKit.PDFDocument): PdfFonts {
  const fonts = loadUnicodeFonts();
  if (!fonts) return { names: BUILT_IN, printable: (_role, text) => toPdfText(text), unicode: false };
  const names = {} as Record<PdfFontRole, string>;
  for (const role of Object.keys(fonts) as PdfFontRole[]) {
    names[role] = fonts[role].name;
    doc.registerFont(fonts[role].name, fonts[role].file);
  }
  return { names, printable: (role, text) => printableIn(fonts[role].coverage, text), unicode: true };
}
