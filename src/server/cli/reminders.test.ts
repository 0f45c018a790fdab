import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { describeSummary, parseTickArgs } from './reminders';

const run = promisify(execFile);
const bin = resolve(__dirname, '../../../bin/jotline.mjs');

describe('jotline reminders tick', () => {
  it('reads --at as an instant with an offset', () => {
    expect(parseTickArgs([])).toEqual({ at: null });
    expect(parseTickArgs(['--at', '2026-11-22T20:00:00-05:00'])).toEqual({ at: new Date('2026-11-23T01:00:00Z') });
    expect(parseTickArgs(['--at=2026-11-22T20:00Z'])).toEqual({ at: new Date('2026-11-22T20:00:00Z') });
    expect(parseTickArgs(['--at', '2026-03-08T20:00:00.250+05:30'])).toEqual({ at: new Date('2026-03-08T14:30:00.250Z') });
  });

  it('refuses an --at that is missing, not a real instant, or without an offset', () => {
    for (const bad of [['--at'], ['--at', ''], ['--at', 'tomorrow'], ['--at', '2026-11-22'], ['--at', '2026-11-22T20:00:00'], ['--at', '2026-02-30T20:00:00Z'], ['--at', '2026-11-22T24:00:00Z'], ['--now']]) {
      const parsed = parseTickArgs(bad);
      expect('error' in parsed, bad.join(' ')).toBe(true);
    }
    expect(parseTickArgs(['--at', '2026-11-22 8pm'])).toEqual({ error: expect.stringContaining('ISO-8601') });
  });

  it('prints what a pass queued', () => {
    expect(describeSummary({ reminders: 3, nudges: 1, recaps: 2, skipped: 4 }, new Date('2026-11-23T01:00:00Z'))).toBe(
      'Reminder pass as of 2026-11-23T01:00:00.000Z: queued 3 reminder(s), 1 nudge(s), 2 recap(s); 4 skipped.',
    );
  });

  it('runs one pass from the command line, and explains a bad --at', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'jotline-tick-'));
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'tick.db')}`,
      MASTER_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'silent',
    };
    try {
      const ok = await run(process.execPath, [bin, 'reminders', 'tick', '--at', '2026-11-22T20:00:00-05:00'], { env });
      expect(ok.stdout).toContain('Reminder pass as of 2026-11-23T01:00:00.000Z: queued 0 reminder(s), 0 nudge(s), 0 recap(s)');
      const bad = await run(process.execPath, [bin, 'reminders', 'tick', '--at', 'yesterday'], { env }).catch((err: { code: number; stderr: string }) => err);
      expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--at must be an ISO-8601 date and time') });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
