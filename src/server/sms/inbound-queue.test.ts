import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_PACING, InboundPacer } from './inbound-pacing';
import { FED_AHEAD, InboundQueue } from './inbound-queue';
import { buildSmsTestApp, type SmsTestApp } from './test-support';

describe("the inbound queue's demand on the spool", () => {
  let t: SmsTestApp;

  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('wants every text when none are arriving, and while a flood arrives only enough to keep FED_AHEAD waiting', async () => {
    let now = 1_000;
    const queue = new InboundQueue(t.ctx, 1, new InboundPacer(INBOUND_PACING, () => now, () => 0));
    expect(queue.wanted()).toBe(Number.POSITIVE_INFINITY);

    queue.arriving();
    expect(queue.wanted()).toBe(FED_AHEAD);
    // Texts the spool moved wait here (processing starts in a later turn of the loop).
    for (let i = 0; i < 15; i++) queue.add(`unknown-${i}`, t.app.log);
    expect(queue.wanted()).toBe(FED_AHEAD - 15);
    for (let i = 15; i < FED_AHEAD + 5; i++) queue.add(`unknown-${i}`, t.app.log);
    expect(queue.wanted()).toBe(0);

    // The flood is over once nothing has arrived for quietMs: everything is wanted again.
    now += INBOUND_PACING.quietMs;
    expect(queue.wanted()).toBe(Number.POSITIVE_INFINITY);
    await queue.idle();
  });
});
