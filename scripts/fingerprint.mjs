// A fingerprint of everything the web build reads: when it matches the stamp, the build is fresh.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const STAMP_FILE = 'dist/.web-build-stamp';
const INPUTS = ['src/web', 'src/shared', 'public', 'index.html', 'vite.config.ts', 'package-lock.json', 'scripts/build.mjs', 'scripts/precompress.mjs', '.env'];

function walk(path, out) {
  if (!existsSync(path)) return;
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) walk(join(path, name), out);
  } else if (!/\.test\.tsx?$/.test(path)) {
    out.push(`${path}:${stat.size}:${stat.mtimeMs}`);
  }
}

export function inputFingerprint(root) {
  const lines = [];
  for (const input of INPUTS) walk(join(root, input), lines);
  // The public pages print the journal number, so a new number means a new build.
  lines.push(`JOURNAL_NUMBER=${process.env.JOURNAL_NUMBER ?? ''}`);
  return createHash('sha256').update(lines.join('\n').replaceAll(root, '')).digest('hex');
}
