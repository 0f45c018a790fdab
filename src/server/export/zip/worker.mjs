// A ZIP-export worker thread. The server runs TypeScript through tsx (bin/jotline.mjs, and vitest
// in tests); a worker starts with a fresh module loader, so it registers tsx the same way first.
import { register } from 'tsx/esm/api';

register();
await import('./zip-job.ts');
