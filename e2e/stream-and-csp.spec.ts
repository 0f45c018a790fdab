import { expect, test, type Page } from '@playwright/test';
import { signUpVerified } from './support';

// The browser side of the hardening: no page trips the Content Security Policy (zod's eval probe
// used to on every page), and the journal's live stream opens with a single-use ticket, so no
// access token ever sits in an address.

/** Every CSP violation the page reports, as events and as console messages. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      void (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test('the public pages and their forms run without a CSP violation', async ({ page }) => {
  const violations = await watchCsp(page);
  for (const path of ['/', '/privacy', '/sign-up']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
  }
  // Forms check their input with zod in the browser: the first parse is where the probe ran.
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password', { exact: true }).fill('Wrong-pass-1');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Sign in failed' })).toBeVisible();
  expect(violations).toEqual([]);
});

test('the open journal hears a text through a stream ticket, with no token in any address', async ({ page, request }) => {
  const violations = await watchCsp(page);
  const addresses: string[] = [];
  page.on('request', (r) => addresses.push(r.url()));

  const account = await signUpVerified(page, request);
  await expect.poll(() => addresses.some((url) => /\/api\/events\?ticket=[\w-]+$/.test(url))).toBe(true);

  const texted = await request.post('/api/dev/phone/send', { data: { from: account.phone, body: 'Heard live: the first snow.' } });
  expect(texted.ok()).toBeTruthy();
  await expect(page.getByRole('article').first()).toContainText('Heard live: the first snow.');

  expect(addresses.filter((url) => /access_token=|refresh_token=/.test(url))).toEqual([]);
  expect(addresses.some((url) => url.endsWith('/api/events/ticket'))).toBe(true);
  expect(violations).toEqual([]);
});

test("Chromium's own EventSource reconnects after the stream drops, with its used ticket, and misses no event", async ({ page, request }) => {
  // The page's streams stay Chromium's own; this only notes the journal events each one hears, with their ids.
  await page.addInitScript(() => {
    const heard: Array<{ id: string; data: string }> = [];
    (window as unknown as { heardEvents: typeof heard }).heardEvents = heard;
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener('entries.changed', (event) => heard.push({ id: (event as MessageEvent).lastEventId, data: (event as MessageEvent<string>).data }));
      }
    };
  });
  const heardEvents = () => page.evaluate(() => (window as unknown as { heardEvents: Array<{ id: string; data: string }> }).heardEvents);
  const streams: Array<{ url: string; cookie: boolean }> = [];
  const tickets: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/events/ticket')) tickets.push(r.url());
  });
  let dropped = false;
  await page.route('**/api/events?ticket=*', async (route) => {
    const headers = await route.request().allHeaders();
    streams.push({ url: route.request().url(), cookie: /(^|;\s*)jotline_stream=/.test(headers.cookie ?? '') });
    if (dropped) return route.continue();
    dropped = true;
    // The first stream is read from the server until it is connected, then cut off, as a proxy
    // restarting would; the browser gets what came until then and the end of the stream.
    const abort = new AbortController();
    const res = await fetch(route.request().url(), { headers: { cookie: headers.cookie ?? '' }, signal: abort.signal });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: connected')) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    await route.fulfill({ status: res.status, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: text });
  });

  const account = await signUpVerified(page, request);
  await expect.poll(() => streams.length).toBe(1);
  // While the browser waits to reconnect (the stream's retry: 5 s), a text is journaled.
  const texted = await request.post('/api/dev/phone/send', { data: { from: account.phone, body: 'Heard after the drop: the creek froze.' } });
  expect(texted.ok()).toBeTruthy();

  await expect.poll(() => streams.length, { timeout: 15_000 }).toBe(2);
  await expect(page.getByRole('article').first()).toContainText('Heard after the drop: the creek froze.');
  // The browser came back by itself: the same, used ticket, with the stream cookie; no new ticket was asked for.
  expect(streams[1]).toEqual({ url: streams[0]!.url, cookie: true });
  expect(tickets).toHaveLength(1);
  // The text's change reached the page on the stream (replayed from Last-Event-ID, or live), once.
  await expect.poll(async () => (await heardEvents()).length).toBeGreaterThanOrEqual(1);

  // And it stays connected: the next text is heard live, after it.
  await request.post('/api/dev/phone/send', { data: { from: account.phone, body: 'Heard live again: ice on the window.' } });
  await expect(page.getByRole('article').first()).toContainText('Heard live again: ice on the window.');
  await expect.poll(async () => (await heardEvents()).length).toBeGreaterThanOrEqual(2);
  const ids = (await heardEvents()).map((event) => event.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.every((id) => /^[\w-]+:\d+$/.test(id))).toBe(true);
});
