import { expect, test, type Page } from '@playwright/test';
import { signUpVerified } from './support';

/** The session the app keeps in localStorage, for API calls as this user. */
async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const value = localStorage.getItem(localStorage.key(i)!);
      if (value?.includes('access_token')) return (JSON.parse(value) as { access_token: string }).access_token;
    }
    throw new Error('no session');
  });
}

test("an entry's Markdown (Day One's) renders in Chromium: bold, task boxes, lists, code and links, safely", async ({ page, request }) => {
  await signUpVerified(page, request);
  const content = ['Packed for **Brisbane**.', '', '- [ ] passport', '- [x] sunscreen', '', 'Run `npm test`, read [the guide](https://example.com/guide) <b>not bold</b>'].join('\n');
  const created = await request.post('/api/entries', { headers: { authorization: `Bearer ${await accessToken(page)}` }, data: { content, entry_date: '2026-10-01' } });
  expect(created.status()).toBe(201);
  await page.reload();
  const card = page.locator('article').filter({ hasText: 'Brisbane' });
  await card.getByRole('button', { name: 'Show more' }).click();
  await expect(card.locator('strong', { hasText: 'Brisbane' })).toBeVisible();
  const boxes = card.getByRole('checkbox');
  await expect(boxes).toHaveCount(2);
  await expect(boxes.nth(0)).not.toBeChecked();
  await expect(boxes.nth(1)).toBeChecked();
  await expect(boxes.nth(0)).toBeDisabled();
  await expect(card.locator('code', { hasText: 'npm test' })).toBeVisible();
  await expect(card.getByRole('link', { name: 'the guide' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  // HTML typed into an entry shows as typed.
  await expect(card).toContainText('<b>not bold</b>');
  await expect(card).not.toContainText('**');
});
