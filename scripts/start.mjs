#!/usr/bin/env node
// `npm start`: builds the web app when it is missing or stale, then serves the whole product.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inputFingerprint, STAMP_FILE } from './fingerprint.mjs';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
const stamp = join(root, STAMP_FILE);
const fresh = existsSync(stamp) && existsSync(join(root, 'dist/web/index.html')) && readFileSync(stamp, 'utf8') === inputFingerprint(root);
if (!fresh) {
  console.log('Building the web app…');
  const { buildAll } = await import('./build.mjs');
  const nodeEnv = process.env.NODE_ENV;
  await buildAll({ quiet: true });
  // Vite sets NODE_ENV=production for its build; the server must see what the user set.
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
}
process.argv.splice(2, process.argv.length, 'serve');
await import('../bin/jotline.mjs');
