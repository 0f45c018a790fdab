import { expect, test, type Page } from '@playwright/test';
import { signUpVerified } from './support';

// Sign in without a password: ask for a link on /sign-in (or text LINK), read it on the dev phone,
// open it and land in the journal. Each link works once.

/** Opens the dev phone as `phone` and answers its conversation log. */
async function openDevPhone(page: Page, phone: string) {
  await page.goto('/dev/phone');
  await page.getByLabel("This phone's number (US)").fill(phone.slice(2));
  await page.getByRole('button', { name: 'Use number' }).click();
  return page.getByRole('log', { name: 'Conversation' });
}

/** The newest sign-in link in the conversation. */
async function latestLink(conversation: ReturnType<Page['getByRole']>, count: number): Promise<string> {
  await expect(conversation.getByText(/Your sign-in link/)).toHaveCount(count, { timeout: 20_000 });
  const text = await conversation.getByText(/Your sign-in link/).last().innerText();
  const link = /(https?:\/\/\S+\/auth\/callback\?token=\S+)/.exec(text)?.[1];
  expect(link).toBeTruthy();
  return link!;
}

test('sign in with a link texted to the phone, no password typed', async ({ browser, page, request }) => {
  const account = await signUpVerified(page, request);

  // A fresh browser: nobody is signed in there.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto('/sign-in');
  await visitor.getByRole('button', { name: 'Text me a sign-in link' }).click();
  const phoneField = visitor.getByLabel('Phone number');
  await expect(phoneField).toBeFocused();
  await phoneField.fill(account.phone.slice(2));
  await phoneField.press('Enter');
  await expect(visitor.getByText('Check your phone')).toBeVisible();

  const handset = await context.newPage();
  const conversation = await openDevPhone(handset, account.phone);
  const link = await latestLink(conversation, 1);

  await visitor.goto(link);
  await expect(visitor).toHaveURL(/\/journal$/, { timeout: 20_000 });
  await expect(visitor.getByRole('heading', { name: 'Welcome to your journal' })).toBeVisible();

  // The link worked once; opened again it explains itself.
  const again = await context.newPage();
  await again.goto(link);
  await expect(again.getByText('This sign-in link is invalid or has expired.')).toBeVisible();

  // Texting LINK from the phone gives a fresh one that signs in too.
  const other = await browser.newContext();
  const laptop = await other.newPage();
  await handset.getByLabel('Message to the journal number').fill('LINK');
  await handset.getByRole('button', { name: 'Send text' }).click();
  const texted = await latestLink(conversation, 2);
  expect(texted).not.toBe(link);
  await laptop.goto(texted);
  await expect(laptop).toHaveURL(/\/journal$/, { timeout: 20_000 });

  await other.close();
  await context.close();
});
