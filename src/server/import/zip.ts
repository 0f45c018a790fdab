import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { messages } from '../../shared/messages';
import { AppError, invalidInput } from '../errors';

/** Bytes read by range (end exclusive): the stored upload, or a buffer in tests. */
export interface ByteSource {
  size: number;
  read(start: number, end: number): Promise<Buffer>;
}

export const bufferSource = (bytes: Buffer): ByteSource => ({ size: bytes.length, read: async (start, end) => bytes.subarray(start, end) });

/** Zip-bomb guards: what an archive may list, and what may be unpacked from it. */
export const ZIP_LIMITS = {
  maxFiles: 20_000,
  /** Everything the import reads from the archive, by the sizes it declares. */
  maxUnpackedBytes: 500 * 1024 * 1024,
  /** One journal's JSON. */
  maxJsonBytes: 100 * 1024 * 1024,
  /** Past this many times its packed size, a file is taken for a bomb while it inflates. */
  maxRatio: 500,
};

const READ_CHUNK = 256 * 1024;

// yauzl asks for byte ranges: these come from the source, a chunk at a time.
class SourceReader extends yauzl.RandomAccessReader {
  constructor(private readonly source: ByteSource) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const source = this.source;
    return Readable.from(
      (async function* () {
        for (let at = start; at < end; at += READ_CHUNK) yield await source.read(at, Math.min(end, at + READ_CHUNK));
      })(),
    ) as unknown as Readable & void;
  }
}

interface ZipArchive {
  /** Every file, by its name in the archive. */
  files: Map<string, yauzl.Entry>;
  /** A file's bytes, inflated within its declared size and the ratio limit. */
  read(name: string): Promise<Buffer>;
}

const tooBig = () => invalidInput(messages.importer.zipTooBig);

/** Opens an archive by its central directory; refuses one that lists more files than the limit. */
export async function openZip(source: ByteSource, limits = ZIP_LIMITS): Promise<ZipArchive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromRandomAccessReader(new SourceReader(source), source.size, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true }, (error, file) =>
      error ? reject(invalidInput(messages.importer.brokenZip)) : resolve(file),
    ),
  );
  if (zip.entryCount > limits.maxFiles) throw tooBig();
  const files = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) files.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', () => reject(invalidInput(messages.importer.brokenZip)));
    zip.readEntry();
  });

  const read = async (name: string): Promise<Buffer> => {
    const entry = files.get(name);
    if (!entry) throw invalidInput(messages.importer.brokenZip);
    const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, s) => (error ? reject(invalidInput(messages.importer.brokenZip)) : resolve(s))));
    // Counted as it inflates: a file that unpacks far past its packed size stops here.
    const most = limits.maxRatio * entry.compressedSize + 64 * 1024;
    let seen = 0;
    const guard = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        done(seen > most ? tooBig() : null, chunk);
      },
    });
    const chunks: Buffer[] = [];
    const collect = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    try {
      await pipeline(stream, guard, collect);
      return Buffer.concat(chunks);
    } catch (error) {
      throw seen > most ? tooBig() : error instanceof AppError ? error : invalidInput(messages.importer.brokenZip);
    }
  };
  return { files, read };
}

/** Refuses an archive whose files to read declare more than the limits allow, before any is inflated. */
export function checkUnpackedSizes(archive: ZipArchive, names: readonly string[], limits = ZIP_LIMITS): void {
  let total = 0;
  for (const name of names) {
    const size = archive.files.get(name)?.uncompressedSize ?? 0;
    if (name.toLowerCase().endsWith('.json') && size > limits.maxJsonBytes) throw tooBig();
    total += size;
  }
  if (total > limits.maxUnpackedBytes) throw tooBig();
}
