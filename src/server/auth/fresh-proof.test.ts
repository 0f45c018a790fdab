import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityMessages } from '../../shared/second-factor';
import { vaultMessages } from '../../shared/vault-messages';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, buildUser, signIn, type TestUser } from '../test/factories';
import { browserKeys, turnOn, wrappedKeys } from '../test/vault';

// A session alone cannot change the vault's keys, turn the vault off or delete the account: a proof
// of the person (signing in, or the password again) from the last five minutes is needed, and each
// change is told to the account's address. A stolen session is refused.

describe('changes that need a fresh proof of the person', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-08-01T10:00:00Z'));
  });
  afterAll(() => t.close());

  const outbox = () => t.app.ctx.simulators.mail!.outbox;
  async function vaultOwner(): Promise<{ account: TestUser; headers: { authorization: string }; publicKey: string }> {
    const account = await buildUser(t);
    const token = await signIn(t, account);
    const headers = bearer(token);
    const keys = await browserKeys();
    await turnOn(t, { id: account.id, token, headers }, keys);
    return { account, headers, publicKey: keys.publicKey };
  }
  const call = (headers: Record<string, string>, method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('refuses a session signed in long ago (a stolen one), changing nothing', async () => {
    const { account, headers, publicKey } = await vaultOwner();
    t.clock.advance(6 * 60_000);
    for (const [method, url, payload] of [
      ['PUT', '/api/vault/keys', { public_key: publicKey, wrapped_keys: { junk: true } }],
      ['POST', '/api/vault/unseal', undefined],
      ['DELETE', '/api/vault', undefined],
      ['DELETE', '/api/auth/user', { confirmationText: 'DELETE' }],
    ] as const) {
      const res = await call(headers, method, url, payload);
      expect([url, res.statusCode, res.json().error]).toEqual([url, 401, { code: 'PROOF_REQUIRED', message: securityMessages.proofRequired }]);
    }
    const vault = await t.app.ctx.db.selectFrom('vaults').selectAll().where('user_id', '=', account.id).executeTakeFirstOrThrow();
    expect(vault.state).toBe('sealing');
    expect(vault.wrapped_keys).not.toContain('junk');
    expect(await t.app.ctx.db.selectFrom('users').select('id').where('id', '=', account.id).execute()).toHaveLength(1);
  });

  it('tells no address its owner never confirmed of a change', async () => {
    const { account, headers, publicKey } = await vaultOwner();
    await t.app.ctx.db.updateTable('users').set({ email_verified_at: null }).where('id', '=', account.id).execute();
    const sentBefore = outbox().length;
    const rewrapped = await call(headers, 'PUT', '/api/vault/keys', { public_key: publicKey, wrapped_keys: wrappedKeys() });
    expect(rewrapped.statusCode, rewrapped.body).toBe(200);
    expect(outbox().slice(sentBefore).filter((m) => m.to === account.email)).toEqual([]);
  });

  it('goes on once the person gives their password again, and tells their address', async () => {
    const { account, headers, publicKey } = await vaultOwner();
    t.clock.advance(6 * 60_000);
    const wrong = await call(headers, 'POST', '/api/auth/confirm', { password: 'Not-the-password1' });
    expect([wrong.statusCode, wrong.json().error.message]).toEqual([400, securityMessages.passwordWrong]);
    expect((await call(headers, 'POST', '/api/auth/confirm', { password: account.password })).statusCode).toBe(204);

    const sentBefore = outbox().length;
    const rewrapped = await call(headers, 'PUT', '/api/vault/keys', { public_key: publicKey, wrapped_keys: wrappedKeys() });
    expect(rewrapped.statusCode, rewrapped.body).toBe(200);
    const mail = outbox().slice(sentBefore);
    expect(mail.map((m) => [m.to, m.subject])).toEqual([[account.email, `Jotline: ${vaultMessages.mail.keysChanged}`]]);

    // Five minutes later, the proof has lapsed again.
    t.clock.advance(5 * 60_000 + 1);
    expect((await call(headers, 'POST', '/api/vault/unseal')).statusCode).toBe(401);
  });

  it('lets a session just signed in do it at once', async () => {
    const { headers } = await vaultOwner();
    expect((await call(headers, 'POST', '/api/vault/unseal')).statusCode).toBe(200);
  });
});
