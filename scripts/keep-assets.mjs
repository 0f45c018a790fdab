// A tab opened before a new build still asks for the old build's chunks: they stay beside the new
// ones (hashed names never collide) for one build, so an open tab keeps working until it reloads.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Where a build lists the assets it made itself (not those it kept from the build before). */
const OWN_ASSETS_FILE = '.vite/own-assets.json';

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * Copies the previous build's own assets (`previousDir/assets`) into the new build (`nextDir`),
 * where the new build has no file of that name, and records the new build's own assets, so the
 * build after it drops what this one kept. Call it after everything else is written to `nextDir`.
 */
export function keepPreviousAssets(previousDir, nextDir) {
  const own = [...files(join(nextDir, 'assets'))].map((path) => relative(nextDir, path));
  const listed = join(previousDir, OWN_ASSETS_FILE);
  // A build from before this list existed: keep all its assets, once.
  const previous = existsSync(listed)
    ? JSON.parse(readFileSync(listed, 'utf8'))
    : [...files(join(previousDir, 'assets'))].map((path) => relative(previousDir, path));
  let kept = 0;
  for (const name of previous) {
    const from = join(previousDir, name);
    const to = join(nextDir, name);
    if (!existsSync(from) || existsSync(to)) continue;
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    kept += 1;
  }
  mkdirSync(dirname(join(nextDir, OWN_ASSETS_FILE)), { recursive: true });
  writeFileSync(join(nextDir, OWN_ASSETS_FILE), JSON.stringify(own));
  return kept;
}
