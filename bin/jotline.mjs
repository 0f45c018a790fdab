#!/usr/bin/env node
// The jotline command: runs the TypeScript CLI through tsx (no separate server build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/server/cli/index.ts');
