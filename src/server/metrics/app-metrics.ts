import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { countHeldVerificationTexts } from '../auth/verification-texts';
import type { AppContext } from '../context';
import { droppedLogLines } from '../logging/logger';

/** What the app reports about itself at GET /metrics (Prometheus text format). */
export interface AppMetrics {
  /** The app's own metrics and the process's (CPU, memory, event loop, GC). */
  registry(): Registry;
  /** A finished HTTP request: the route pattern (never the raw URL), method, status and seconds taken. */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** A processed inbound text: what it turned out to be (journal, help, opt_out…) or failed. */
  inboundText(outcome: string): void;
  /** One outbound text's result this try: sent, skipped, dropped (past its use), failed, gave_up (after 24 hours) or retrying. */
  outboundText(status: string): void;
  /** A provider's delivery report for one of our texts: delivered, undelivered, failed… */
  deliveryReport(status: string): void;
  /** A background job run: how late it started against its schedule, and how long it took. */
  jobRun(job: string, lagSeconds: number, durationSeconds: number): void;
}

// The process's figures are collected once per process, however many apps it builds.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    new Counter({
      name: 'jotline_log_lines_dropped_total',
      help: 'Log lines this process could not write to standard output (a full disk, a reader that has gone) and went on without.',
      registers: [processRegistry],
      collect() {
        this.reset();
        this.inc(droppedLogLines());
      },
    });
  }
  return processRegistry;
}

/**
 * One registry per app (tests build several apps in one process). Gauges that describe shared
 * state (the outbound queue) read the database when scraped; counters are this instance's own.
 */
export function createAppMetrics(context: () => AppContext): AppMetrics {
  const registry = new Registry();
  const registers = [registry];

  const httpRequests = new Counter({
    name: 'jotline_http_requests_total',
    help: 'HTTP requests by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'jotline_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const inboundTexts = new Counter({
    name: 'jotline_inbound_texts_total',
    help: 'Inbound texts processed by this instance, by outcome.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const outboundTexts = new Counter({
    name: 'jotline_outbound_texts_total',
    help: 'Outbound send attempts by this instance, by result.',
    labelNames: ['status'] as const,
    registers,
  });
  const deliveryReports = new Counter({
    name: 'jotline_delivery_reports_total',
    help: "Providers' delivery reports for outbound texts, by status.",
    labelNames: ['status'] as const,
    registers,
  });
  const schedulerLag = new Gauge({
    name: 'jotline_scheduler_lag_seconds',
    help: 'How late the last run of each background job started against its schedule.',
    labelNames: ['job'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'jotline_job_duration_seconds',
    help: 'Background job run time.',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
    registers,
  });

  new Gauge({
    name: 'jotline_outbound_queue_depth',
    help: 'Outbound texts not yet handed to the provider (pending or being sent), across all instances.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const rows = await context()
        .db.selectFrom('sms_messages')
        .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
        .where('direction', '=', 'outbound')
        .where('status', 'in', ['pending', 'sending'])
        .groupBy('status')
        .execute();
      this.reset();
      for (const status of ['pending', 'sending']) {
        this.set({ status }, Number(rows.find((r) => r.status === status)?.count ?? 0));
      }
    },
  });
  new Gauge({
    name: 'jotline_outbound_oldest_due_seconds',
    help: 'Age of the oldest pending outbound text that is due (0 when none waits).',
    registers,
    async collect() {
      const ctx = context();
      const now = ctx.clock.now();
      const row = await ctx.db
        .selectFrom('sms_messages')
        .select((eb) => eb.fn.min('send_after').as('oldest'))
        .where('direction', '=', 'outbound')
        .where('status', '=', 'pending')
        .where('send_after', '<=', now.toISOString())
        .executeTakeFirst();
      const oldest = row?.oldest ? Date.parse(String(row.oldest)) : NaN;
      this.set(Number.isNaN(oldest) ? 0 : Math.max(0, (now.getTime() - oldest) / 1000));
    },
  });
  new Gauge({
    name: 'jotline_search_cache_bytes',
    help: "About how much memory the journals in this instance's search cache take.",
    registers,
    collect() {
      this.set(context().journalCache.sizeBytes);
    },
  });
  new Gauge({
    name: 'jotline_search_cache_journals',
    help: "Journals held in this instance's search cache.",
    registers,
    collect() {
      this.set(context().journalCache.journalCount);
    },
  });

  new Gauge({
    name: 'jotline_verification_texts_waiting',
    help: 'Verification texts queued for later, across all instances: held back by SMS_VERIFICATION_HOURLY_MAX (or waiting to retry).',
    registers,
    async collect() {
      this.set(await countHeldVerificationTexts(context()));
    },
  });

  // Each request's series looked up once per route, method and status (a few hundred at most:
  // routes are patterns), not by hashing its labels on every request.
  const httpSeries = new Map<string, { count: { inc(): void }; duration: { observe(seconds: number): void } }>();

  return {
    registry: () => Registry.merge([processMetrics(), registry]),
    httpRequest(route, method, status, seconds) {
      const key = `${status} ${method} ${route}`;
      let series = httpSeries.get(key);
      if (!series) {
        series = { count: httpRequests.labels(route, method, String(status)), duration: httpDuration.labels(route, method) };
        httpSeries.set(key, series);
      }
      series.count.inc();
      series.duration.observe(seconds);
    },
    inboundText: (outcome) => inboundTexts.inc({ outcome }),
    outboundText: (status) => outboundTexts.inc({ status }),
    deliveryReport: (status) => deliveryReports.inc({ status }),
    jobRun(job, lagSeconds, durationSeconds) {
      schedulerLag.set({ job }, lagSeconds);
      jobDuration.observe({ job }, durationSeconds);
    },
  };
}
