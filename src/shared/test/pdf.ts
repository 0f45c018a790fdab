import fontkit from '@pdf-lib/fontkit';
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib';

// Reading a journal PDF back in tests: its lines of text, fonts, glyphs and images.

/**
 * Each page's lines of text, read back through each font's ToUnicode map (the fonts are subsets:
 * glyph ids, not characters, are in the content); the runs drawn on one baseline make one line.
 */
export function pageLines(doc: PDFDocument, page: PDFPage): string[] {
  const fontDict = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
  const glyphsOf = new Map<string, Map<string, string>>();
  for (const [name, ref] of fontDict.entries()) {
    const toUnicode = doc.context.lookup(ref, PDFDict).lookup(PDFName.of('ToUnicode')) as PDFRawStream;
    const cmap = new TextDecoder().decode(decodePDFRawStream(toUnicode).decode());
    const glyphs = new Map<string, string>();
    for (const [, glyph, units] of cmap.matchAll(/<([0-9a-f]{4})> <([0-9a-f]+)>/gi)) {
      glyphs.set(glyph!.toLowerCase(), String.fromCharCode(...units!.match(/.{4}/g)!.map((u) => Number.parseInt(u, 16))));
    }
    glyphsOf.set(name.toString().slice(1), glyphs);
  }
  const contents = page.node.lookup(PDFName.of('Contents'));
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref) as PDFRawStream) : [contents as PDFRawStream];
  const content = streams.map((stream) => new TextDecoder('latin1').decode(decodePDFRawStream(stream).decode())).join('\n');
  const lines: string[] = [];
  let glyphs: Map<string, string> | undefined;
  let y: string | undefined;
  let lastY: string | undefined;
  for (const [, font, baseline, hex] of content.matchAll(/\/(\S+) [\d.]+ Tf|1 0 0 1 \S+ (\S+) Tm|<([0-9A-Fa-f]*)> Tj/g)) {
    if (font) glyphs = glyphsOf.get(font);
    else if (baseline) y = baseline;
    else {
      const text = hex!.toLowerCase().match(/.{4}/g)!.map((g) => glyphs?.get(g) ?? '\uFFFD').join('');
      if (y === lastY && lines.length) lines[lines.length - 1] += text;
      else lines.push(text);
      lastY = y;
    }
  }
  return lines;
}

/**
 * The characters a document's embedded fonts would draw blank: each font's file read back, and each
 * glyph its ToUnicode map names for a visible character checked for an outline.
 */
export function blankGlyphs(doc: PDFDocument): string[] {
  const blank: string[] = [];
  for (const page of doc.getPages()) {
    for (const [, ref] of page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict).entries()) {
      const font = doc.context.lookup(ref, PDFDict);
      const descendant = font.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict);
      const file = descendant.lookup(PDFName.of('FontDescriptor'), PDFDict).lookup(PDFName.of('FontFile2')) as PDFRawStream;
      const embedded = fontkit.create(Buffer.from(decodePDFRawStream(file).decode()));
      const cmap = new TextDecoder().decode(decodePDFRawStream(font.lookup(PDFName.of('ToUnicode')) as PDFRawStream).decode());
      for (const [, glyph, units] of cmap.matchAll(/<([0-9a-f]{4})> <([0-9a-f]+)>/gi)) {
        const text = String.fromCharCode(...units!.match(/.{4}/g)!.map((u) => Number.parseInt(u, 16)));
        if (text.trim() && (embedded.getGlyph(Number.parseInt(glyph!, 16)).path as unknown as { commands: unknown[] }).commands.length === 0) blank.push(text);
      }
    }
  }
  return blank;
}

/** The fonts a document embeds (BaseFont, without the subset's tag). */
export function fontNames(doc: PDFDocument): string[] {
  return doc.getPages().flatMap((page) =>
    [...page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict).entries()].map(([, ref]) => doc.context.lookup(ref, PDFDict).get(PDFName.of('BaseFont'))!.toString().replace(/^\/([A-Z]{6}\+)?|-\d+$/g, '')),
  );
}

/** The image XObjects each page draws, by their size in pixels. */
export function pageImages(doc: PDFDocument, page: PDFPage): Array<{ width: number; height: number }> {
  const xObjects = page.node.Resources()!.lookupMaybe(PDFName.of('XObject'), PDFDict);
  if (!xObjects) return [];
  return [...xObjects.entries()]
    .map(([, ref]) => (doc.context.lookup(ref as PDFRef) as PDFRawStream).dict)
    .filter((dict) => dict.get(PDFName.of('Subtype')) === PDFName.of('Image'))
    .map((dict) => ({ width: dict.lookup(PDFName.of('Width'), PDFNumber).asNumber(), height: dict.lookup(PDFName.of('Height'), PDFNumber).asNumber() }));
}
