import { describe, expect, it } from 'vitest';
import { InboundPacer, type PacingSettings } from './inbound-pacing';

// The pacer on a clock of the test's own: the loop's time, and how much of it the loop spent with
// nothing to do, are simulated, so the figures are exact.
describe('pacing inbound processing behind the webhooks', () => {
  const settings: PacingSettings = { share: 0.25, quietMs: 5, burstMs: 10, maxWaitMs: 1_000 };
  const pacerAt = () => {
    const clock = { ms: 1_000, idle: 0 };
    return { clock, pacer: new InboundPacer(settings, () => clock.ms, () => clock.idle) };
  };

  it('lets a lone text through at once, and a few more before the share applies', () => {
    const { clock, pacer } = pacerAt();
    pacer.arrived();
    expect(pacer.waitMs()).toBe(0);
    pacer.spent(9);
    expect(pacer.waitMs()).toBe(0);
    pacer.spent(3);
    // 2 ms over the allowance, earned back at a quarter of the time passing.
    expect(pacer.waitMs()).toBe(8);
    clock.ms += 4;
    expect(pacer.waitMs()).toBe(4);
    clock.ms += 4;
    expect(pacer.waitMs()).toBe(0);
  });

  it('runs flat out once texts stop arriving, however much it has spent', () => {
    const { clock, pacer } = pacerAt();
    pacer.arrived();
    pacer.spent(500);
    expect(pacer.waitMs()).toBeGreaterThan(0);
    clock.ms += settings.quietMs;
    expect(pacer.waitMs()).toBe(0);
    pacer.spent(500);
    expect(pacer.waitMs()).toBe(0);
  });

  it('under a flood, takes no time a text held the loop for a pause in the flood (no request could arrive meanwhile)', () => {
    const { clock, pacer } = pacerAt();
    pacer.arrived();
    clock.ms += 1;
    expect(pacer.waitMs()).toBe(0);
    // The text held the loop for 20 ms, four times quietMs, with requests waiting all along.
    clock.ms += 20;
    pacer.spent(20);
    expect(pacer.arriving()).toBe(true);
    // 10 ms over its allowance, 5 earned back meanwhile: 5 more at a quarter.
    expect(pacer.waitMs()).toBe(20);
    // The loop free for quietMs with nothing arriving: the flood is over.
    clock.ms += settings.quietMs;
    expect(pacer.arriving()).toBe(false);
    expect(pacer.waitMs()).toBe(0);
  });

  it('never makes a text wait longer than maxWaitMs, however long the one before took', () => {
    const { clock, pacer } = pacerAt();
    pacer.arrived();
    // A photo's slow download is charged too (see inbound-pacing.ts): a minute, at a quarter, would be four.
    pacer.spent(60_000);
    expect(pacer.waitMs()).toBe(1_000);
    clock.ms += 1_000;
    pacer.arrived();
    expect(pacer.waitMs()).toBe(0);
  });

  /**
   * Ten seconds of webhooks back to back (80 µs each, then `pauseMs` of idle loop after each), and
   * texts costing 300 µs to process taken between them whenever the pacer allows.
   */
  const flood = (pauseMs: number) => {
    const { clock, pacer } = pacerAt();
    const started = clock.ms;
    let processingMs = 0;
    let processed = 0;
    let acknowledged = 0;
    while (clock.ms - started < 10_000) {
      clock.ms += 0.08;
      pacer.arrived();
      acknowledged += 1;
      clock.ms += pauseMs;
      clock.idle += pauseMs;
      if (pacer.waitMs() === 0) {
        clock.ms += 0.3;
        pacer.spent(0.3);
        processingMs += 0.3;
        processed += 1;
      }
    }
    return { share: processingMs / (clock.ms - started), processed, acknowledged };
  };

  it('under a flood takes its share of the loop, no more, and keeps processing', () => {
    const { share, processed, acknowledged } = flood(0);
    // A quarter, give or take the first burst and one text.
    expect(share).toBeGreaterThan(0.24);
    expect(share).toBeLessThan(0.252);
    expect(processed).toBeGreaterThan(8_000);
    expect(acknowledged).toBeGreaterThan(90_000);
  });

  it('under a flood whose requests leave short pauses, still takes only its share', () => {
    // 30 µs of idle loop after each request: 27 % idle, as between the requests of a few busy connections.
    const { share } = flood(0.03);
    expect(share).toBeGreaterThan(0.24);
    expect(share).toBeLessThan(0.252);
  });

  it('under a flood answered ten requests at a time (ten connections waiting on their answers), still takes only its share', () => {
    // Ten requests back to back (80 µs each), then the loop waits 0.7 ms for the next ten: idle for
    // most of some milliseconds, never for most of a longer stretch. A text taken in such a wait keeps
    // all ten connections waiting for as long as it takes. A small share, so the idle waits would
    // more than fill it.
    const clock = { ms: 1_000, idle: 0 };
    const pacer = new InboundPacer({ ...settings, share: 0.05 }, () => clock.ms, () => clock.idle);
    const started = clock.ms;
    let processingMs = 0;
    const processOneIfAllowed = () => {
      if (pacer.waitMs() > 0) return;
      clock.ms += 0.3;
      pacer.spent(0.3);
      processingMs += 0.3;
    };
    while (clock.ms - started < 10_000) {
      for (let i = 0; i < 10; i++) {
        clock.ms += 0.08;
        pacer.arrived();
        processOneIfAllowed();
      }
      clock.ms += 0.7;
      clock.idle += 0.7;
      processOneIfAllowed();
    }
    const share = processingMs / (clock.ms - started);
    expect(share).toBeGreaterThan(0.045);
    expect(share).toBeLessThan(0.055);
  });

  it('under a steady stream that leaves the loop idle, takes the idle time too and keeps up', () => {
    const { clock, pacer } = pacerAt();
    const started = clock.ms;
    let waiting = 0;
    let processed = 0;
    let mostWaiting = 0;
    // A text a millisecond for ten seconds (80 µs to acknowledge, 300 µs to process): a loop only
    // 38 % busy. Processing limited to its quarter would manage 0.83 texts a millisecond and fall
    // further behind every second.
    for (let arrival = 1; arrival <= 10_000; arrival++) {
      const next = started + arrival;
      if (clock.ms < next) {
        clock.idle += next - clock.ms;
        clock.ms = next;
      }
      clock.ms += 0.08;
      pacer.arrived();
      waiting += 1;
      // Until the next text arrives, the loop processes what the pacer allows, then waits idle.
      while (waiting > 0 && clock.ms + 0.3 <= next + 1 && pacer.waitMs() === 0) {
        clock.ms += 0.3;
        pacer.spent(0.3);
        waiting -= 1;
        processed += 1;
      }
      mostWaiting = Math.max(mostWaiting, waiting);
    }
    expect(processed).toBeGreaterThanOrEqual(9_999);
    expect(mostWaiting).toBeLessThanOrEqual(2);
  });

  it('waits on a timer under load, so the loop answers requests meanwhile, and resolves once allowed', async () => {
    // A loop that never idles (the idle time stands still), so only the share ends the wait.
    const pacer = new InboundPacer({ share: 0.25, quietMs: 60_000, burstMs: 1, maxWaitMs: 1_000 }, undefined, () => 0);
    pacer.arrived();
    pacer.spent(6);
    let answered = false;
    setTimeout(() => (answered = true), 0);
    const before = performance.now();
    await pacer.next();
    expect(answered).toBe(true);
    // 5 ms over at a quarter: 20 ms of waiting (timers may fire a little early or late).
    expect(performance.now() - before).toBeGreaterThanOrEqual(18);
  });

  it('on the real event loop, ends a wait early while the loop has nothing else to do', async () => {
    const pacer = new InboundPacer({ share: 0.25, quietMs: 60_000, burstMs: 1, maxWaitMs: 1_000 });
    pacer.arrived();
    // 50 ms over: 200 ms at a quarter of a busy loop, about 50 ms of an idle one.
    pacer.spent(51);
    const ended = await Promise.race([pacer.next().then(() => 'pacer'), new Promise((resolve) => setTimeout(resolve, 150, 'timer'))]);
    expect(ended).toBe('pacer');
  });
});
