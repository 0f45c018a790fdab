import { expect, test, type Page } from '@playwright/test';
import { newAccount } from './support';

// The whole accounts journey a newcomer walks: sign up, verify the phone by replying YES on the
// dev phone, land in the journal, sign out and in, then reset a forgotten password by e-mail.

const newPassword = 'Brighter456';

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function signIn(page: Page, email: string, withPassword: string) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(withPassword);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/journal$/);
  await expect(page.getByText('Your personal journaling space')).toBeVisible();
}

test('sign up, verify by text, sign in and out, and reset a forgotten password', async ({ page, context }) => {
  const { email, phone, password } = newAccount();
  await page.goto('/');
  await page.getByRole('link', { name: 'Start Now' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mobile phone').fill(phone.slice(2));
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/phone-verification$/);
  await expect(page.getByRole('heading', { name: 'Check your phone!' })).toBeVisible();

  // The verification text arrives on the dev phone; replying YES verifies the account.
  const phonePage = await context.newPage();
  await phonePage.goto('/dev/phone');
  await phonePage.getByLabel("This phone's number (US)").fill(phone.slice(2));
  await phonePage.getByRole('button', { name: 'Use number' }).click();
  const conversation = phonePage.getByRole('log', { name: 'Conversation' });
  await expect(conversation).toContainText('Reply YES');
  await expect(conversation).toContainText('STOP');
  await phonePage.getByRole('button', { name: 'YES', exact: true }).click();
  await expect(conversation).toContainText('YES');

  // The verification page notices and signs the user in.
  await expect(page).toHaveURL(/\/journal$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Welcome to your journal' })).toBeVisible();

  await signOut(page);
  await page.goto('/journal');
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, email, password);
  await signOut(page);

  // The address is confirmed from the link mailed at sign-up: reset mails go only to a confirmed address.
  const confirmPage = await context.newPage();
  await confirmPage.goto('/dev/mail');
  await confirmPage.getByRole('button', { name: /Confirm your Jotline e-mail address/ }).first().click();
  const confirmHref = await confirmPage.getByRole('link', { name: /auth\/callback/ }).first().getAttribute('href');
  expect(confirmHref).toContain('type=email');
  await page.goto(confirmHref!);
  await expect(page.getByRole('heading', { name: 'E-mail address confirmed' })).toBeVisible();
  await confirmPage.close();

  // Forgot password: the reset e-mail lands in the dev mailbox.
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Email' }).click();
  await expect(page.getByText('Check your email for password reset instructions.').first()).toBeVisible();

  const mailPage = await context.newPage();
  await mailPage.goto('/dev/mail');
  await mailPage.getByRole('button', { name: /Reset your Jotline password/ }).first().click();
  const resetLink = mailPage.getByRole('link', { name: /reset-password/ }).first();
  const href = await resetLink.getAttribute('href');
  expect(href).toContain('token_hash=');

  await page.goto(href!);
  await expect(page.getByRole('heading', { name: 'Set New Password' })).toBeVisible();
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await signIn(page, email, newPassword);
});
