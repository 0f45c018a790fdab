import { PDFCrossRefSection, PDFHeader, PDFStream, PDFTrailer, PDFTrailerDict, type PDFDocument, type PDFObject, type PDFRef } from 'pdf-lib';

// pdf-lib holds a whole document until save() writes it at once. A journal of years with its
// photos would sit in memory to its last page, and nothing would reach the reader before then; this
// writes it as it is made instead: the streams that are done (pages' text, photos, the bulk of a
// PDF) go out and are let go, and the small rest (page and font dictionaries, the catalogue)
// follows at the end with the cross-reference table, as save() would write them.

const ascii = new TextEncoder();

export class PdfStreamWriter {
  private offset = 0;
  private readonly offsets: Array<[PDFRef, number]> = [];

  constructor(
    private readonly doc: PDFDocument,
    private readonly write: (bytes: Uint8Array) => void | Promise<void>,
  ) {}

  /** The header: the first bytes of the file. */
  async start(): Promise<void> {
    const header = PDFHeader.forVersion(1, 7);
    const bytes = new Uint8Array(header.sizeInBytes() + 2);
    header.copyBytesInto(bytes, 0);
    bytes.set([0x0a, 0x0a], bytes.length - 2);
    await this.out([bytes]);
  }

  /** Writes out the streams in the document so far (pages done, photos), and lets them go. */
  async flush(): Promise<void> {
    await this.writeObjects(this.doc.context.enumerateIndirectObjects().filter(([, object]) => object instanceof PDFStream));
  }

  /** Embeds the fonts (subsets of the glyphs used), then writes everything left, the cross-reference table and the trailer. */
  async end(): Promise<void> {
    await this.doc.flush();
    await this.writeObjects(this.doc.context.enumerateIndirectObjects());
    const xref = PDFCrossRefSection.create();
    for (const [ref, offset] of [...this.offsets].sort(([a], [b]) => a.objectNumber - b.objectNumber)) xref.addEntry(ref, offset);
    const { context } = this.doc;
    const trailerDict = PDFTrailerDict.of(context.obj({ Size: context.largestObjectNumber + 1, Root: context.trailerInfo.Root, Info: context.trailerInfo.Info }));
    const trailer = PDFTrailer.forLastCrossRefSectionOffset(this.offset);
    const bytes = new Uint8Array(xref.sizeInBytes() + 1 + trailerDict.sizeInBytes() + 2 + trailer.sizeInBytes());
    let at = xref.copyBytesInto(bytes, 0);
    bytes[at++] = 0x0a;
    at += trailerDict.copyBytesInto(bytes, at);
    bytes[at++] = 0x0a;
    bytes[at++] = 0x0a;
    trailer.copyBytesInto(bytes, at);
    await this.out([bytes]);
  }

  /** Each object as save() writes it ('7 0 obj\n…\nendobj\n\n'), then dropped from the document. */
  private async writeObjects(objects: ReadonlyArray<[PDFRef, PDFObject]>): Promise<void> {
    const parts: Uint8Array[] = [];
    let offset = this.offset;
    for (const [ref, object] of objects) {
      const head = ascii.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
      const bytes = new Uint8Array(head.length + object.sizeInBytes() + 9);
      bytes.set(head);
      const end = head.length + object.copyBytesInto(bytes, head.length);
      bytes.set(ascii.encode('\nendobj\n\n'), end);
      this.offsets.push([ref, offset]);
      offset += bytes.length;
      parts.push(bytes);
      this.doc.context.delete(ref);
    }
    await this.out(parts, offset);
  }

  private async out(parts: Uint8Array[], offset?: number): Promise<void> {
    if (!parts.length) return;
    const size = parts.reduce((sum, part) => sum + part.length, 0);
    const bytes = parts.length === 1 ? parts[0]! : new Uint8Array(size);
    if (parts.length > 1) {
      let at = 0;
      for (const part of parts) {
        bytes.set(part, at);
        at += part.length;
      }
    }
    this.offset = offset ?? this.offset + size;
    await this.write(bytes);
  }
}
