import { performance } from 'node:perf_hooks';

export interface PacingSettings {
  /** The part of the event loop's time processing may take while texts keep arriving. */
  share: number;
  /** Texts count as arriving until this long after the last one (milliseconds). */
  quietMs: number;
  /** Processing time allowed at once before the share applies: a few texts, so a lone one never waits. */
  burstMs: number;
  /**
   * The longest wait before a text, however long the one before took: a batch's texts are claimed
   * together, and its last must start well within the claims' lease (two minutes).
   */
  maxWaitMs: number;
}

/**
 * A twentieth of the loop while webhooks keep it busy. Now that a text is recorded with one append
 * (inbound-spool/spool.ts), processing one costs five to eight times what acknowledging it does, and
 * each text processed holds back the answers of every connection waiting meanwhile: with ten
 * connections flooding the webhook, at a fifth the webhooks were answered at 0.25–0.28 of bare
 * node:http's rate, at a tenth at 0.36, at a twentieth at 0.33–0.40 (bench/webhook.mjs; the machine's
 * noise is that wide), and at 0.41–0.50 once the spool held the flood's texts back too and a long
 * text no longer counted as a pause in the flood. A stream the loop keeps up with leaves it idle most
 * of each IDLE_WINDOW_MS, and processing takes that idle time too; so only an overload is held to the
 * share, the texts it leaves are recorded and are processed flat out once the flood stops, and
 * Twilio, answered in time, never sends them again.
 */
export const INBOUND_PACING: PacingSettings = { share: 0.05, quietMs: 5, burstMs: 10, maxWaitMs: 1_000 };

/** How often a waiting pacer looks again whether the loop has been idle (milliseconds). */
const IDLE_CHECK_MS = 1;
/** The loop counts as free when it was idle at least this part of a window of IDLE_WINDOW_MS. */
const MOSTLY_IDLE = 0.5;
/** How long a stretch of the loop's time the pacer judges idle or busy as a whole (milliseconds). */
const IDLE_WINDOW_MS = 20;

/** What the processing loop asks before each text and tells after it (see processInboundMessages). */
export interface Pace {
  /** Resolves when the next text may be processed: in the next turn of the loop, or later under load. */
  next(): Promise<void>;
  /** Processing the last text took this long (milliseconds). */
  spent(ms: number): void;
}

/** No pacing: each text in a turn of the loop of its own, so requests are answered in between. */
export const TURN_BY_TURN: Pace = {
  next: () => new Promise((resolve) => setImmediate(resolve)),
  spent: () => {},
};

/**
 * Acknowledgements first: the webhook answers Twilio once a text is recorded (Twilio gives up after
 * 15 seconds and sends it again), and processing follows. While texts keep arriving, processing may
 * take its share of the loop's time, and the loop's idle time whenever the loop is mostly idle (a
 * token bucket refilled at `share` of the time passing, or in full for the time the loop waited with
 * nothing to do, holding at most `burstMs`); when they stop, it runs flat out. So under a flood the
 * webhooks keep most of the loop, and a steady stream the loop could keep up with is kept up with.
 * The texts are recorded durably before they are paced, so a pause loses nothing.
 * A text is charged the time its processing took from start to end. On SQLite that is time on the
 * loop, except a photo's download, whose wait is charged too: under a flood, texts with photos are
 * processed more slowly than their share allows, never lost or starved.
 */
export class InboundPacer implements Pace {
  private lastArrival = Number.NEGATIVE_INFINITY;
  /** Whether texts were arriving when the pacer last let one through (or made it wait). */
  private flooded = false;
  private allowance: number;
  private refilledAt: number;
  private windowFrom: number;
  private idleAtWindow: number;

  /**
   * `now` is the time in milliseconds; `idle`, how long the event loop has waited for something to
   * do so far, in milliseconds (both moving forward only).
   */
  constructor(
    private readonly settings: PacingSettings = INBOUND_PACING,
    private readonly now: () => number = () => performance.now(),
    private readonly idle: () => number = () => performance.eventLoopUtilization().idle,
  ) {
    this.allowance = settings.burstMs;
    this.refilledAt = now();
    this.windowFrom = this.refilledAt;
    this.idleAtWindow = idle();
  }

  /** A text arrived: processing gives way to the acknowledgements for a while. */
  arrived(): void {
    this.lastArrival = this.now();
  }

  /** Whether texts are arriving (the last came less than `quietMs` ago). */
  arriving(): boolean {
    return this.now() - this.lastArrival < this.settings.quietMs;
  }

  /** How long processing must wait before its next text; 0 when it may go on. */
  waitMs(): number {
    const now = this.now();
    const idle = this.idle();
    const { share, quietMs, burstMs } = this.settings;
    this.flooded = now - this.lastArrival < quietMs;
    if (!this.flooded) {
      this.allowance = burstMs;
      this.windowFrom = now;
      this.idleAtWindow = idle;
    } else {
      let refill = (now - this.refilledAt) * share;
      // Idle time counts in full only when the loop was idle most of a window of IDLE_WINDOW_MS. Between
      // the requests of a flood the loop idles too, a few tenths of a millisecond at a time (in some
      // milliseconds most of it), but a text taken in such a pause keeps the next requests waiting
      // for as long as it takes; a stream the loop keeps up with leaves it idle window after window.
      const window = now - this.windowFrom;
      if (window >= IDLE_WINDOW_MS) {
        const idled = Math.min(idle - this.idleAtWindow, window);
        if (idled >= window * MOSTLY_IDLE) refill += idled * (1 - share);
        this.windowFrom = now;
        this.idleAtWindow = idle;
      }
      this.allowance = Math.min(burstMs, this.allowance + refill);
    }
    this.refilledAt = now;
    return this.allowance >= 0 ? 0 : Math.ceil(-this.allowance / share);
  }

  spent(ms: number): void {
    this.allowance = Math.max(this.allowance - ms, -this.settings.maxWaitMs * this.settings.share);
    // A text taken under a flood held the loop, which took no requests meanwhile: that time is no
    // pause in the flood. (Counted as one, a text longer than quietMs ended the flood for the pacer,
    // and the texts after it were taken flat out while requests waited.)
    if (this.flooded) this.lastArrival = Math.min(this.now(), this.lastArrival + ms);
  }

  async next(): Promise<void> {
    let wait = this.waitMs();
    if (wait === 0) return TURN_BY_TURN.next();
    // Waiting on a timer, the loop answers whatever arrives meanwhile. A millisecond at a time: a loop
    // left mostly idle meanwhile has its idle time counted in full, which ends the wait early.
    while (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, IDLE_CHECK_MS)));
      wait = this.waitMs();
    }
  }
}
