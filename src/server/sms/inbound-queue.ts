import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import type { MoveDemand } from '../inbound-spool/spool';
import { InboundPacer, TURN_BY_TURN } from './inbound-pacing';
import { processInboundMessages } from './process-inbound';

interface QueuedText {
  id: string;
  log: FastifyBaseLogger;
}

/** The most texts a lane takes at once (see InboundQueue). */
const BATCH_MAX = 20;
/** While texts keep arriving, the spool keeps this many waiting here and holds the rest (see wanted). */
export const FED_AHEAD = 2 * BATCH_MAX;

/**
 * Texts recorded by this app and waiting to be processed, in the order they arrived.
 *
 * On SQLite every statement runs synchronously, so a text's processing (about twenty statements and
 * the journal's encryption) holds the event loop until it is done. Started all at once, a burst of
 * texts ran back to back in one turn of the loop while the webhooks behind them waited; here one text
 * is processed per turn and the loop answers what has arrived in between, so a webhook waits for at
 * most one text. On PostgreSQL statements wait on the network, so a few run side by side.
 * A lane takes the texts waiting in batches (claimed together, outcomes written together: see
 * processInboundMessages), at most BATCH_MAX, so a batch is done long before its claims' lease ends.
 * On SQLite, while texts keep arriving, processing takes only a share of the loop (inbound-pacing.ts):
 * the webhooks are answered first. PostgreSQL's lanes spend most of a text waiting on the network,
 * with the loop free meanwhile, so they are not paced (their wait is no share of the loop).
 * Texts are already recorded durably: one not processed when the app stops is left for the sweep.
 */
export class InboundQueue implements MoveDemand {
  private readonly waiting: QueuedText[] = [];
  private running = 0;
  private scheduled = false;
  /** Callers of idle() waiting for the queue to empty. */
  private readonly waitingForIdle: (() => void)[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly lanes: number,
    private readonly pacer?: InboundPacer,
  ) {}

  /** Queues a recorded text; it is processed (or fails and is logged) in its turn. */
  add(id: string, log: FastifyBaseLogger): void {
    this.waiting.push({ id, log });
    this.pacer?.arrived();
    this.schedule();
  }

  /** A text is arriving (in the spool, to be queued once in the database): processing gives way to the webhooks. */
  arriving(): void {
    this.pacer?.arrived();
  }

  /**
   * How many texts the spool should move into the database for processing now (inbound-spool/spool.ts):
   * all of them when none are arriving; while they arrive, enough to keep FED_AHEAD waiting. Under a
   * flood processing takes only its share of the loop and reaches few of them; the rest are moved
   * once the flood is over, and the loop's time goes to the webhooks meanwhile.
   */
  wanted(): number {
    if (!this.pacer?.arriving()) return Number.POSITIVE_INFINITY;
    return Math.max(0, FED_AHEAD - this.waiting.length);
  }

  /** Resolves once every text queued so far, and any queued meanwhile, has been processed. */
  idle(): Promise<void> {
    if (this.waiting.length === 0 && this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.waitingForIdle.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0 || this.running >= this.lanes) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.waiting.length > 0 && this.running < this.lanes) {
        // Shared between the free lanes, so PostgreSQL's lanes each take a part of a short queue.
        const size = Math.min(BATCH_MAX, Math.ceil(this.waiting.length / (this.lanes - this.running)));
        void this.process(this.waiting.splice(0, size));
      }
    });
  }

  private async process(texts: QueuedText[]): Promise<void> {
    this.running += 1;
    try {
      const outcomes = await processInboundMessages(this.ctx, texts.map((text) => text.id), { pace: this.pacer ?? TURN_BY_TURN });
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'failed') texts[i]!.log.warn({ smsId: texts[i]!.id, err: outcome.error }, 'inbound text not processed; the sweep retries it');
      });
    } catch (err) {
      for (const text of texts) text.log.error({ smsId: text.id, err: err instanceof Error ? err.message : String(err) }, 'inbound processing crashed');
    } finally {
      this.running -= 1;
      this.schedule();
      if (this.waiting.length === 0 && this.running === 0) for (const resolve of this.waitingForIdle.splice(0)) resolve();
    }
  }
}

const queues = new WeakMap<AppContext, InboundQueue>();

/** The app's queue: one text at a time (paced) on SQLite, four side by side on PostgreSQL. */
export function inboundQueueOf(ctx: AppContext): InboundQueue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = ctx.dbKind === 'sqlite' ? new InboundQueue(ctx, 1, new InboundPacer()) : new InboundQueue(ctx, 4);
    queues.set(ctx, queue);
  }
  return queue;
}
