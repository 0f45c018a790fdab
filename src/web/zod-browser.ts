// zod as the web build sees it (vite.config.ts resolves 'zod' here): set to jitless before any module
// that builds a schema runs, wherever that module loads, so the entry never has to carry zod itself.
import './zod-jitless';

export * from 'zod/v4';
export { default } from 'zod/v4';
