import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PDF_FONT_FILES, type PdfFace } from '../../shared/pdf';

const require = createRequire(import.meta.url);
const files = new Map<PdfFace, Promise<Uint8Array>>();

/** A face of the journal PDF from its package (DejaVu, Noto Emoji), read once a worker. */
export function readPdfFont(face: PdfFace): Promise<Uint8Array> {
  let file = files.get(face);
  if (!file) files.set(face, (file = readFile(require.resolve(PDF_FONT_FILES[face]))));
  return file;
}
