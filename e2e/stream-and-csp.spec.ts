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
