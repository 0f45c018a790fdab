#!/usr/bin/env node
// `npm run bench`: runs every benchmark one after another, each in its own process, shows its
// output as it goes, and writes bench/RESULTS.md with the machine, the date, the load the machine
// was under and every figure. A benchmark that fails is recorded as failed; the others still run.
// BENCH_ONLY=webhook,run runs some of them and replaces only their sections. Sections of RESULTS.md
// no benchmark here writes (written by hand, or by a script run on its own) are kept as they are.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem, type as osType, release } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const here = import.meta.dirname;
const BENCHES = [
  { name: 'run', file: 'run.mjs', title: 'Journal API: first page and search of a 3,650-entry journal' },
  { name: 'webhook', file: 'webhook.mjs', title: 'Inbound texts, 10,000 users: the webhook flat out, and end to end at fixed rates' },
  { name: 'cache-memory', file: 'cache-memory.mjs', flags: ['--expose-gc'], title: 'Journal cache memory' },
  { name: 'reminders', file: 'reminders.mjs', title: 'Reminder pass over 1,000,000 profiles' },
  { name: 'outbound', file: 'outbound.mjs', title: 'Outbound sending to a fake Twilio' },
  { name: 'export-pdf', file: 'export-pdf.mjs', flags: ['--expose-gc'], title: 'Export of a ten-year journal' },
  { name: 'import', file: 'import.mjs', title: 'Imports while other requests go on' },
  { name: 'voice', file: 'voice.mjs', title: 'Voice notes: 100 one-minute recordings at once, transcribed while other requests go on' },
];
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const selected = only ? BENCHES.filter((b) => only.includes(b.name)) : BENCHES;

function run(bench) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...(bench.flags ?? []), join(here, bench.file)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
      process.stderr.write(chunk);
    });
    child.on('close', (code) => resolve({ code, out, err, seconds: (performance.now() - started) / 1000 }));
  });
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' / ');
const cores = cpus();
const startedAt = new Date();
const results = [];
for (const bench of selected) {
  console.log(`\n=== ${bench.title} (bench/${bench.file})\n`);
  const loadBefore = load();
  const result = await run(bench);
  results.push({ bench, loadBefore, loadAfter: load(), ...result });
}

const busiest = Math.max(...results.flatMap((r) => [r.loadBefore, r.loadAfter].map((l) => Number(l.split(' / ')[0]))));
const header = [
  '# Benchmark results',
  '',
  'Written by `npm run bench` (bench/all.mjs), which runs each script below in its own process and copies its output.',
  'Every figure sits beside a baseline measured in the same run on the same machine (bare node:http, a bare',
  '`SELECT 1`, bare POSTs to the fake Twilio), so ratios compare better across machines than the raw figures.',
  '',
  `- Date: ${startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} (took ${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} min${only ? `; ${only.join(', ')} only, the other sections are from earlier runs` : ''})`,
  `- CPU: ${cores[0]?.model.trim() ?? 'unknown'}, ${cores.length} cores`,
  `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GB (${(freemem() / 2 ** 30).toFixed(1)} GB free at the end)`,
  `- System: ${osType()} ${release()}; Node ${process.version}`,
  `- Load average (1 / 5 / 15 min) around each script is shown with it; the busiest 1-minute figure was ${busiest.toFixed(2)} on ${cores.length} cores.`,
];
// The benchmarks themselves keep both cores busy, and the 1-minute average carries that from one
// script to the next: what says whether other work shared the machine is the load before the first.
const idleBefore = Number(results[0]?.loadBefore.split(' / ')[0] ?? 0);
if (idleBefore > cores.length * 0.5) {
  header.push(
    '',
    `> **Taken under load.** The machine was busy with other work when these started (load ${idleBefore.toFixed(2)} on ${cores.length} cores):`,
    '> absolute figures are lower and noisier than on an idle machine, the baselines included.',
  );
}
// Another checkout measured (BENCH_APP_ROOT, BENCH_BEFORE) is named by its commit, not its path.
const commitOf = (dir) => spawnSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
const trees = ['BENCH_APP_ROOT', 'BENCH_BEFORE'].filter((name) => process.env[name]).map((name) => `${name}=<checkout-of-${commitOf(process.env[name])}> `).join('');
const sectionOf = (r) => {
  const lines = [`## ${r.bench.title}`, '', `\`${trees}node ${[...(r.bench.flags ?? []), `bench/${r.bench.file}`].join(' ')}\` — ${r.seconds.toFixed(0)} s, load ${r.loadBefore} before, ${r.loadAfter} after${r.code === 0 ? '' : `, **failed (exit ${r.code})**`}`, '', '```', r.out.trimEnd()];
  if (r.code !== 0) lines.push('', r.err.trim().split('\n').slice(-15).join('\n'));
  lines.push('```');
  return lines.join('\n');
};

// The sections already in RESULTS.md, by title, in their order; this run's replace theirs, and a
// new one goes after the section of the benchmark before it (with the sections written by hand there).
const file = join(here, 'RESULTS.md');
const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
const sections = previous.split(/^(?=## )/m).slice(1).map((text) => ({ title: text.split('\n', 1)[0].slice(3).trim(), text: text.trimEnd() }));
const isBench = (section) => BENCHES.some((b) => b.title === section.title);
for (const r of results) {
  const section = { title: r.bench.title, text: sectionOf(r) };
  const at = sections.findIndex((s) => s.title === section.title);
  if (at >= 0) {
    sections[at] = section;
    continue;
  }
  const earlier = BENCHES.slice(0, BENCHES.indexOf(r.bench)).map((b) => b.title);
  let after = sections.findLastIndex((s) => earlier.includes(s.title));
  while (after >= 0 && sections[after + 1] && !isBench(sections[after + 1]) && !/^`(BENCH_\w+=\S+ )*node /.test(sections[after + 1].text.split('\n')[2] ?? '')) after++;
  sections.splice(after + 1, 0, section);
}
// A section a benchmark here wrote under an older title (its command line names the script) is
// dropped; every other section stays.
const kept = sections.filter(({ title, text }) => {
  const command = text.split('\n')[2] ?? '';
  return isBench({ title }) || !/^`(BENCH_\w+=\S+ )*node /.test(command) || !BENCHES.some((b) => command.includes(`bench/${b.file}\``));
});
writeFileSync(file, [header.join('\n'), ...kept.map((s) => s.text)].join('\n\n') + '\n');
console.log('\nWrote bench/RESULTS.md');
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
