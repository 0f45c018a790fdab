#!/usr/bin/env node
// `npm run dev`: the API server with restart-on-change (tsx watch) and the web app with hot reload
// (Vite on :5173, proxying /api to the server on :3000).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/cli/index.ts', 'serve'], { cwd: root, stdio: 'inherit' }),
  spawn('npx', ['vite'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
console.log('Open http://localhost:5173 (API on http://localhost:3000)');
