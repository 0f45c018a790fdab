import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context';
import { enqueueSms } from '../sms/outbound';
import { buildSmsTestApp, startFakeTwilio } from '../test/sms';
import { uniquePhone } from '../test/factories';
import { createScheduler, type Scheduler } from './scheduler';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ctx = {} as AppContext;

describe('the scheduler', () => {
  let scheduler: Scheduler | undefined;
  afterEach(async () => {
    await scheduler?.stop();
  });

  const silentLog = () => ({ error: vi.fn() }) as unknown as FastifyBaseLogger & { error: ReturnType<typeof vi.fn> };

  it('keeps running the other jobs, and the failing one, after a failure', async () => {
    const log = silentLog();
    let failures = 0;
    let runs = 0;
    scheduler = createScheduler(
      ctx,
      [
        {
          name: 'broken',
          everyMs: 10,
          run: async () => {
            failures++;
            throw new Error('boom');
          },
        },
        { name: 'healthy', everyMs: 10, run: async () => void runs++ },
      ],
      log,
    );
    scheduler.start();
    await sleep(400);
    expect(failures).toBeGreaterThanOrEqual(2);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(log.error).toHaveBeenCalledWith({ job: 'broken', err: 'boom' }, 'job failed');
  });

  it('collapses a burst of triggers into one run soon after', async () => {
    let runs = 0;
    scheduler = createScheduler(ctx, [{ name: 'sender', everyMs: 60_000, run: async () => void runs++ }], silentLog());
    scheduler.start();
    await sleep(20);
    expect(runs).toBe(1); // the first tick
    for (let i = 0; i < 10; i++) scheduler.trigger('sender');
    await sleep(150);
    expect(runs).toBe(2);
  });

  it('never runs one job twice at once, and runs it again if triggered meanwhile', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    scheduler = createScheduler(
      ctx,
      [
        {
          name: 'slow',
          everyMs: 60_000,
          run: async () => {
            runs++;
            most = Math.max(most, ++active);
            await sleep(100);
            active--;
          },
        },
      ],
      silentLog(),
    );
    scheduler.start();
    await sleep(10);
    scheduler.trigger('slow');
    await sleep(400);
    expect(most).toBe(1);
    expect(runs).toBe(2);
  });

  it('waits for a running job when stopped', async () => {
    let finished = false;
    scheduler = createScheduler(
      ctx,
      [
        {
          name: 'slow',
          everyMs: 60_000,
          run: async () => {
            await sleep(100);
            finished = true;
          },
        },
      ],
      silentLog(),
    );
    scheduler.start();
    await scheduler.stop();
    expect(finished).toBe(true);
  });
});

describe('jobs in a running app', () => {
  it('sends a queued text within moments, woken by the job wake-up of the context', async () => {
    const twilio = await startFakeTwilio();
    const t = await buildSmsTestApp({ twilio, env: { JOBS: 'on' } });
    try {
      await sleep(50); // the first tick finds nothing to send
      const to = uniquePhone();
      await enqueueSms(t.ctx, { userId: null, to, body: 'soon', kind: 'signup_hint' });
      const started = Date.now();
      while (twilio.sentTo(to).length === 0 && Date.now() - started < 3_000) await sleep(20);
      expect(twilio.sentTo(to)).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(900);
    } finally {
      await t.close();
      await twilio.close();
    }
  });
});
