import { messages } from '../messages';
import { refuseFile } from './file-error';
import { looksLikeJrnl } from './jrnl';

/** What an upload's first bytes say it is; the rest is read by the import. */
export type UploadKind = 'zip' | 'text';

/** How much of the upload is looked at before it is taken. */
export const SNIFF_BYTES = 64 * 1024;

const ZIP = [0x50, 0x4b];
// Files people pick by mistake: named, rather than taken for encrypted journals.
const KNOWN_BINARIES = ['\x89PNG', '\xff\xd8\xff', 'GIF8', '%PDF', 'RIFF', 'BM', '\x1f\x8b', 'Rar!', '7z\xbc\xaf'];

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const startsWith = (head: Uint8Array, magic: string) => head.length >= magic.length && latin1(head.subarray(0, magic.length)) === magic;

/** Bits of information per byte: an encrypted file is close to 8, text well below. */
function entropy(bytes: Uint8Array): number {
  const counts = new Array<number>(256).fill(0);
  for (const b of bytes) counts[b]! += 1;
  let bits = 0;
  for (const n of counts) if (n) bits -= (n / bytes.length) * Math.log2(n / bytes.length);
  return bits;
}

function isText(head: Uint8Array, whole: boolean): boolean {
  if (head.includes(0)) return false;
  // A multi-byte character may be cut at the end of the head.
  const body = whole ? head : head.subarray(0, Math.max(0, head.length - 4));
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * Tells from the first bytes of an upload (`whole` when they are all of it) whether it can be a
 * journal we import, and refuses at once, with a clear message, one that cannot: a picture, a
 * document, an encrypted jrnl journal, text that is no journal. Empty is a journal of no entries.
 */
export function sniffImport(head: Uint8Array, whole: boolean): UploadKind {
  if (head.length >= 2 && head[0] === ZIP[0] && head[1] === ZIP[1]) return 'zip';
  // jrnl 3 writes a header; jrnl 2 a Fernet token (base64 of 0x80 and a timestamp: "gAAAAA").
  if (startsWith(head, 'JRNLv3')) throw refuseFile(messages.importer.encrypted);
  if (!isText(head, whole)) {
    const named = KNOWN_BINARIES.some((magic) => startsWith(head, magic)) || latin1(head.subarray(4, 8)) === 'ftyp';
    // jrnl 1.x: an IV and AES-CBC ciphertext, indistinguishable from noise.
    if (!named && head.length >= 32 && entropy(head) > 7) throw refuseFile(messages.importer.encrypted);
    throw refuseFile(messages.importer.unknownFormat);
  }
  const text = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '').trimStart();
  if (text === '') return 'text';
  if (/^gAAAAA[A-Za-z0-9_=-]{40,}/.test(text)) throw refuseFile(messages.importer.encrypted);
  if (looksLikeJrnl(text)) return 'text';
  // JSON: the journal formats all have "entries" near the top; a long file is left to the reader.
  if (text.startsWith('{') && (/"entries"\s*:/.test(text) || !whole)) return 'text';
  throw refuseFile(messages.importer.unknownFormat);
}
