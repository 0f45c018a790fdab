import boldUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf?url';
import obliqueUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf?url';
import regularUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf?url';
import type { EntryPhoto } from '../../../../shared/journal';
import { renderPdf, type PdfFontFiles, type PdfInput } from './pdf';

// Loaded only when a Vault user makes a PDF (export.ts imports it on demand): pdf-lib, fontkit and
// DejaVu's three faces (about 2 MB) stay out of every other page load.

let fontFiles: Promise<PdfFontFiles> | null = null;

async function fetchFont(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`A PDF font could not be fetched (${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

/** DejaVu Sans, as the server's PDF sets it: any script the journal is written in prints. Fetched once a tab. */
function dejaVu(): Promise<PdfFontFiles> {
  fontFiles ??= Promise.all([fetchFont(regularUrl), fetchFont(boldUrl), fetchFont(obliqueUrl)]).then(([regular, bold, oblique]) => ({ regular, bold, oblique }));
  fontFiles.catch(() => (fontFiles = null));
  return fontFiles;
}

/** A picture the browser can decode, as a JPEG on white at most `maxPixels` on a side (the server's PDF photos); null when it cannot. */
async function reencode(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array | null> {
  const image = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { imageOrientation: 'from-image' }).catch(() => null);
  if (!image) return null;
  try {
    const scale = Math.min(1, maxPixels / Math.max(image.width, image.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(image.width * scale));
    canvas.height = Math.max(1, Math.round(image.height * scale));
    const context = canvas.getContext('2d');
    if (!context) return null;
    // A transparent GIF or webp would turn black as a JPEG: white behind it, as on the server.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    const jpeg = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.8));
    return jpeg ? new Uint8Array(await jpeg.arrayBuffer()) : null;
  } finally {
    image.close();
  }
}

/** The journal's PDF, with its photos when asked for them. */
export async function journalPdf(input: PdfInput, photo: (photo: EntryPhoto) => Promise<Uint8Array | null>): Promise<Blob> {
  const bytes = await renderPdf(input, { fonts: await dejaVu(), photo, reencode });
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' });
}
