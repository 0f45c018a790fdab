import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signUpVerified } from './support';

/** Stored-XSS payloads: each sets a flag or opens a dialog if it ever runs as code. */
const payloads = [
  '<script>window.__xss = "script"</script>',
  '<img src=x onerror="window.__xss = \'img\'">',
  '"><svg onload="alert(\'svg\')">',
  "'><iframe src=\"javascript:alert('iframe')\"></iframe>",
  '<a href="javascript:alert(\'link\')">click me</a>',
  '{{constructor.constructor("alert(\'template\')")()}}',
  '<details open ontoggle="alert(\'details\')">',
  // Markdown, which the journal renders: links and images that would run code.
  '**bold** [md link](javascript:alert(\'md\')) ![md image](x" onerror="window.__xss = \'md\') <img src=x onerror="window.__xss = \'md html\'">',
];

/** The session the app keeps in localStorage, for API calls as this user. */
async function accessToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('jotline.session'));
  return JSON.parse(raw!).access_token;
}

test('payloads stored in entries, tags, texts and photo names render as text and never run', async ({ page, request }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const account = await signUpVerified(page, request);
  const headers = { authorization: `Bearer ${await accessToken(page)}` };

  // Entries written on the web: content, title and tags.
  for (const [i, payload] of payloads.entries()) {
    const created = await request.post('/api/entries', {
      headers,
      data: { content: `web ${i} ${payload}`, title: `title ${i} ${payload}`.slice(0, 200), tags: `tag${i}, ${payload.slice(0, 40)}`, entry_date: `2026-10-${String(i + 1).padStart(2, '0')}` },
    });
    expect(created.status()).toBe(201);
  }
  // A text message, through the same inbound pipeline a real text takes.
  const texted = await request.post('/api/dev/phone/send', { data: { from: account.phone, body: `texted ${payloads[1]} ${payloads[2]}` } });
  expect(texted.ok()).toBeTruthy();
  // A photo whose file name is a payload.
  const entries = await (await request.get('/api/entries', { headers })).json();
  const photo = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#0f766e' } }).png().toBuffer();
  const upload = await request.post(`/api/entries/${entries.entries[0].id}/photos`, {
    headers,
    multipart: { photos: { name: `<img src=x onerror=alert('photo')>.png`, mimeType: 'image/png', buffer: photo } },
  });
  expect(upload.status()).toBe(201);

  await page.reload();
  const cards = page.locator('article');
  await expect(cards.first()).toBeVisible();
  // Everything shows as the characters that were typed.
  await expect(page.getByText(`web 1 ${payloads[1]}`)).toBeVisible();
  await expect(page.getByText(payloads[0]!, { exact: false }).first()).toBeVisible();
  await expect(page.getByText(/texted <img src=x onerror=/).first()).toBeVisible();

  // Open the photo (its name is the payload) and the editor, where the raw text sits in inputs.
  await page.getByRole('button', { name: /^Open photo 1 of 1/ }).first().click();
  await expect(page.getByRole('dialog').getByRole('img')).toBeVisible();
  await page.keyboard.press('Escape');
  await cards.first().getByRole('button', { name: /^Edit entry/ }).click();
  await expect(page.getByRole('form', { name: 'Edit entry' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Search by a payload: highlighted matches must stay text too.
  await page.getByLabel('Search entries').fill('onerror');
  await expect(cards.first()).toBeVisible();

  const injected = await page.evaluate(() => ({
    flag: (window as unknown as { __xss?: string }).__xss ?? null,
    handlers: document.querySelectorAll('[onerror], [onload], [ontoggle]').length,
    scripts: [...document.querySelectorAll('script')].filter((s) => !s.src && s.type !== 'application/ld+json').length,
    frames: document.querySelectorAll('iframe').length,
    javascriptLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
  }));
  expect(injected).toEqual({ flag: null, handlers: 0, scripts: 0, frames: 0, javascriptLinks: 0 });
  expect(dialogs).toEqual([]);
});
