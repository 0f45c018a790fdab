import emoji from '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf?url';
import bold from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf?url';
import boldOblique from 'dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf?url';
import oblique from 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf?url';
import regular from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf?url';
import mono from 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf?url';
import type { ExportInput } from '../../../../shared/export-render';
import type { EntryPhoto, JournalEntry } from '../../../../shared/journal';
import { renderPdf, type PdfFace } from '../../../../shared/pdf';

// Loaded only when a Vault user makes a PDF (export.ts imports it on demand): pdf-lib, fontkit and
// the fonts stay out of every other page load; a face is fetched only when a journal uses it (the
// emoji face for emoji, the mono face for code).

const FONT_URLS: Record<PdfFace, string> = { regular, bold, oblique, boldOblique, mono, emoji };
const fontFiles = new Map<PdfFace, Promise<Uint8Array>>();

/** A face of the PDF (the server's fonts: any script the journal is written in prints). Fetched once a tab. */
function font(face: PdfFace): Promise<Uint8Array> {
  let file = fontFiles.get(face);
  if (!file) {
    file = fetch(FONT_URLS[face]).then(async (response) => {
      if (!response.ok) throw new Error(`A PDF font could not be fetched (${response.status})`);
      return new Uint8Array(await response.arrayBuffer());
    });
    file.catch(() => fontFiles.delete(face));
    fontFiles.set(face, file);
  }
  return file;
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
export async function journalPdf(input: ExportInput<JournalEntry>, photo: (photo: EntryPhoto) => Promise<Uint8Array | null>): Promise<Blob> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  await renderPdf(input, { font, photo, reencode }, (bytes) => void parts.push(bytes as Uint8Array<ArrayBuffer>));
  return new Blob(parts, { type: 'application/pdf' });
}
