import { config } from 'zod/v4/core';

// zod compiles object parsers with `new Function` when it can, and finds out by trying once. Under
// our CSP (no 'unsafe-eval') that probe is refused and reported as a violation on every page, so
// tell zod not to try. Imported first by main.tsx, before any schema parses anything.
config({ jitless: true });
