#!/usr/bin/env node
// What the in-memory journal costs: heap per cached 3,650-entry journal (measured after a full GC)
// beside the cache's own estimate, and the budget (SEARCH_CACHE_MB) holding under many journals.
// Run with `node --expose-gc bench/cache-memory.mjs` (npm run bench runs it).
import { rmSync } from 'node:fs';
import { appModule, benchEnv, loadApp } from './support.mjs';

const ENTRIES = 3650;
const JOURNALS = 4;
if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
const heap = () => {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(2);

const { seedJournal } = await appModule('bench/seed-journal.ts');
const { JournalCache } = await appModule('src/server/journal/cache.ts');
const { pageOfEntries } = await appModule('src/server/journal/search.ts');
const { entryFilterSchema } = await appModule('src/shared/journal.ts');

const { dataDir, env } = benchEnv();
const app = await loadApp(env);
try {
  const users = [];
  for (let i = 0; i < JOURNALS; i++) users.push((await seedJournal(app, ENTRIES)).userId);
  const search = entryFilterSchema.parse({ q: 'zeppelin' });

  const cache = new JournalCache(() => app.ctx, 1024 * 1024 * 1024);
  const before = heap();
  const held = [];
  for (const userId of users) {
    const entries = await cache.entries(userId);
    pageOfEntries(entries, search); // a search, as a request would, before measuring
    held.push(entries);
  }
  const measured = (heap() - before) / JOURNALS;
  console.log(`${ENTRIES}-entry journal in memory, ${JOURNALS} journals:`);
  console.log(`  measured heap per journal:    ${mb(measured)} MB`);
  console.log(`  the cache's estimate:         ${mb(cache.sizeBytes / JOURNALS)} MB (estimate ÷ measured ${(cache.sizeBytes / JOURNALS / measured).toFixed(2)})`);

  const budgetMb = 12;
  const small = new JournalCache(() => app.ctx, budgetMb * 1024 * 1024);
  for (const userId of users) await small.entries(userId);
  console.log(`  budget ${budgetMb} MB after ${JOURNALS} journals: ${small.journalCount} held, ${mb(small.sizeBytes)} MB`);
  held.length = 0;
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
