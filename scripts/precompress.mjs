// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the built web app,
// so the server sends the smallest encoding the browser accepts without compressing on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// .ttf: the PDF fonts a Vault journal's export fetches (DejaVu, 2 MB as it is, half that compressed).
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.ico', '.ttf']);
/** Below this, the encoding header costs about what compression saves. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Compresses every eligible file under `dir`; returns how many files got compressed copies. */
export function precompress(dir) {
  let count = 0;
  for (const path of files(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const raw = readFileSync(path);
    if (raw.length < MIN_BYTES) continue;
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [constants.BROTLI_PARAM_MODE]: extname(path) === '.ttf' ? constants.BROTLI_MODE_FONT : constants.BROTLI_MODE_TEXT,
      },
    });
    const gz = gzipSync(raw, { level: 9 });
    // A copy that is not smaller is never worth serving.
    if (br.length < raw.length) writeFileSync(`${path}.br`, br);
    if (gz.length < raw.length) writeFileSync(`${path}.gz`, gz);
    count += 1;
  }
  return count;
}
