import { expect, type Page } from '@playwright/test';
import { generateSync } from 'otplib';

/** Chromium's virtual authenticator (DevTools protocol): internal transport, resident keys, user verification. */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    /** Whether the "user" touches the authenticator for each request that comes (on at the start). */
    present: (enabled: boolean) => cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled }),
  };
}

/** The authenticator app's code for the secret now; after `usedStep`, waits for a later 30-second step. */
export async function totpCode(page: Page, secret: string, usedStep?: number): Promise<{ code: string; step: number }> {
  let step = Math.floor(Date.now() / 30_000);
  while (usedStep !== undefined && step <= usedStep) {
    await page.waitForTimeout(1_000);
    step = Math.floor(Date.now() / 30_000);
  }
  return { code: generateSync({ secret, epoch: Math.floor(Date.now() / 1000) }), step };
}

/**
 * Walks the admin login page's setup of an authenticator app (the page the admin lands on without a
 * second factor); answers the secret, the step of the code used and the recovery codes.
 */
export async function setUpAuthenticatorApp(page: Page) {
  await expect(page.getByText('Set up two-step verification')).toBeVisible();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const { code, step } = await totpCode(page, secret);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = await list.getByRole('listitem').allTextContents();
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  return { secret, step, recoveryCodes };
}
