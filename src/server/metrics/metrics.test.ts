import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { jobDefinitions } from '../jobs/definitions';
import { OUTBOUND_SENDER } from '../jobs/wakeups';
import { createEntry, journalUser, listEntries } from '../test/journal';
import { buildSmsTestApp, postTwilioWebhook, startFakeTwilio, textJournal, type FakeTwilio, type SmsTestApp } from '../test/sms';
import { buildTestApp } from '../test/app';
import { buildUser, uniquePhone } from '../test/factories';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of the sample whose name and labels are exactly `series`, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let t: SmsTestApp;
  let twilio: FakeTwilio;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await buildSmsTestApp({ twilio, env: { METRICS_TOKEN } });
    t.clock.set(new Date('2026-03-14T15:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('answers 401 without the metrics token, or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-wrong' }, { authorization: `Basic ${METRICS_TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
      expect(res.body).not.toContain('jotline_');
    }
  });

  it('serves Prometheus text to a scraper with the token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE jotline_http_requests_total counter');
    expect(res.body).toContain('# TYPE process_cpu_user_seconds_total counter');
  });

  it('counts requests by route pattern and status, with latency histograms, never by raw URL', async () => {
    const id = 'a1b2c3d4e5f6';
    await t.app.inject({ method: 'DELETE', url: `/api/entries/${id}` });
    await t.app.inject({ method: 'DELETE', url: `/api/entries/${id}x` });
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing?access_token=secret-token-value' });
    const text = await scrape();
    expect(sample(text, 'jotline_http_requests_total{route="/api/entries/:id",method="DELETE",status="401"}')).toBe(2);
    expect(sample(text, 'jotline_http_request_duration_seconds_count{route="/api/entries/:id",method="DELETE"}')).toBe(2);
    expect(sample(text, 'jotline_http_request_duration_seconds_bucket{le="+Inf",route="/api/entries/:id",method="DELETE"}')).toBe(2);
    expect(sample(text, 'jotline_http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(1);
    expect(text).not.toContain(id);
    expect(text).not.toContain('no-such-thing');
    expect(text).not.toContain('secret-token-value');
  });

  it('counts inbound texts by outcome, outbound sends by result, and shows the queue depth', async () => {
    const user = await buildUser(t);
    await textJournal(t, user.phone, 'a day worth remembering');
    await textJournal(t, uniquePhone(), 'who is this?');
    let text = await scrape();
    expect(sample(text, 'jotline_inbound_texts_total{outcome="journal"}')).toBe(1);
    expect(sample(text, 'jotline_inbound_texts_total{outcome="unknown_number"}')).toBe(1);
    // The sign-up hint to the unknown number waits in the queue.
    expect(sample(text, 'jotline_outbound_queue_depth{status="pending"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'jotline_outbound_queue_depth{status="sending"}')).toBe(0);
    t.clock.advance(90_000);
    expect(sample(await scrape(), 'jotline_outbound_oldest_due_seconds')).toBeGreaterThanOrEqual(90);

    await jobDefinitions.find((job) => job.name === OUTBOUND_SENDER)!.run(t.ctx);
    text = await scrape();
    expect(sample(text, 'jotline_outbound_texts_total{status="sent"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'jotline_outbound_queue_depth{status="pending"}')).toBe(0);
    expect(sample(text, 'jotline_outbound_oldest_due_seconds')).toBe(0);
    expect(text).not.toContain(user.phone);
    expect(text).not.toContain('worth remembering');

    // Twilio's delivery reports, by status (an unknown status is counted, under one label).
    const [sent] = twilio.sent;
    expect((await postTwilioWebhook(t, '/webhooks/twilio/status', { MessageSid: sent!.sid, MessageStatus: 'delivered' })).statusCode).toBe(200);
    expect((await postTwilioWebhook(t, '/webhooks/twilio/status', { MessageSid: sent!.sid, MessageStatus: 'made-up' })).statusCode).toBe(200);
    text = await scrape();
    expect(sample(text, 'jotline_delivery_reports_total{status="delivered"}')).toBe(1);
    expect(sample(text, 'jotline_delivery_reports_total{status="other"}')).toBe(1);
  });

  it('shows what the search cache holds', async () => {
    const user = await journalUser(t);
    await createEntry(t, user, { content: 'held in memory for search' });
    await listEntries(t, user, '?q=memory');
    const text = await scrape();
    expect(sample(text, 'jotline_search_cache_journals')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'jotline_search_cache_bytes')).toBeGreaterThan(0);
  });
});

describe('GET /metrics without METRICS_TOKEN configured', () => {
  it('refuses a guessable token at start, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });

  it('always answers 401', async () => {
    const t = await buildTestApp();
    try {
      for (const authorization of [undefined, 'Bearer ', 'Bearer undefined']) {
        const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(res.statusCode).toBe(401);
      }
    } finally {
      await t.close();
    }
  });
});

describe('scheduler metrics', () => {
  it('reports how late each background job started', async () => {
    const t = await buildTestApp({ JOBS: 'on', METRICS_TOKEN });
    try {
      await vi.waitFor(async () => {
        const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        expect(sample(res.body, `jotline_scheduler_lag_seconds{job="${OUTBOUND_SENDER}"}`)).toBeGreaterThanOrEqual(0);
        expect(sample(res.body, `jotline_job_duration_seconds_count{job="${OUTBOUND_SENDER}"}`)).toBeGreaterThanOrEqual(1);
        // The first run comes at the start; on a busy machine (PostgreSQL, other suites) later than vitest's 1 s default.
      }, { timeout: 10_000, interval: 100 });
    } finally {
      await t.close();
    }
  });
});
