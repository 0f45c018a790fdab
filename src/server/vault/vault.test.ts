import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultMessages } from '../../shared/vault-messages';
import { journalUser, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { browserKeys, vaultRequest, wrappedKeys } from '../test/vault';

const errors = vaultMessages.errors;

describe('the vault settings: GET, PUT /api/vault and PUT /api/vault/keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const put = (user: JournalTestUser, body: unknown, url = '/api/vault') => vaultRequest(t, user, 'PUT', url, body);

  it('is off for a new journal', async () => {
    const user = await journalUser(t);
    const res = await vaultRequest(t, user, 'GET', '/api/vault');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ enabled: false, state: 'off', public_key: null, wrapped_keys: null, sealed_entries: 0, total_entries: 0 });
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/vault' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/vault', payload: {} })).statusCode).toBe(401);
  });

  it('turns on with a public key and the wrapped keys, kept as sent; a second setup is refused', async () => {
    const user = await journalUser(t);
    const keys = await browserKeys();
    const wrapped = wrappedKeys();
    const on = await put(user, { public_key: keys.publicKey, wrapped_keys: wrapped });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ enabled: true, state: 'sealing', public_key: keys.publicKey, wrapped_keys: wrapped, sealed_entries: 0, total_entries: 0 });
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ enabled: true, public_key: keys.publicKey, wrapped_keys: wrapped });

    const again = await put(user, { public_key: (await browserKeys()).publicKey, wrapped_keys: wrappedKeys() });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(errors.alreadyOn);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json().public_key).toBe(keys.publicKey);
  });

  it.each([
    ['missing', undefined],
    ['not base64', '!'.repeat(44)],
    ['31 bytes', randomBytes(31).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['URL-safe base64', randomBytes(32).toString('base64url')],
    ['hex', randomBytes(32).toString('hex')],
  ])('refuses a public key that is %s', async (_name, publicKey) => {
    const user = await journalUser(t);
    const res = await put(user, { public_key: publicKey, wrapped_keys: wrappedKeys() });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(errors.publicKeyInvalid);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json().enabled).toBe(false);
  });

  it('refuses wrapped keys that are not an object, or too large', async () => {
    const user = await journalUser(t);
    const publicKey = (await browserKeys()).publicKey;
    for (const wrapped of ['a string', ['a', 'list'], null, 42]) {
      const res = await put(user, { public_key: publicKey, wrapped_keys: wrapped });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(errors.wrappedKeysInvalid);
    }
    const large = await put(user, { public_key: publicKey, wrapped_keys: { ...wrappedKeys(), padding: 'x'.repeat(5000) } });
    expect(large.statusCode).toBe(400);
    expect(large.json().error.message).toBe(errors.wrappedKeysTooLarge);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json().enabled).toBe(false);
  });

  it('re-wraps the same private key (a new passphrase) without changing the public key', async () => {
    const user = await journalUser(t);
    const keys = await browserKeys();
    await put(user, { public_key: keys.publicKey, wrapped_keys: wrappedKeys() });
    const rewrapped = wrappedKeys();
    const res = await put(user, { public_key: keys.publicKey, wrapped_keys: rewrapped }, '/api/vault/keys');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ enabled: true, public_key: keys.publicKey, wrapped_keys: rewrapped });
  });

  it('refuses to re-wrap for another public key (a page opened before the vault was set up anew), or with no vault', async () => {
    const user = await journalUser(t);
    const keys = await browserKeys();
    const original = wrappedKeys();
    await put(user, { public_key: keys.publicKey, wrapped_keys: original });
    const other = await put(user, { public_key: (await browserKeys()).publicKey, wrapped_keys: wrappedKeys() }, '/api/vault/keys');
    expect(other.statusCode).toBe(409);
    expect(other.json().error.message).toBe(errors.otherKey);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json().wrapped_keys).toEqual(original);

    const nobody = await journalUser(t);
    const off = await put(nobody, { public_key: keys.publicKey, wrapped_keys: wrappedKeys() }, '/api/vault/keys');
    expect(off.statusCode).toBe(404);
    expect(off.json().error.message).toBe(errors.off);
  });

  it('shows each user only their own vault', async () => {
    const alice = await journalUser(t);
    const bob = await journalUser(t);
    await put(alice, { public_key: (await browserKeys()).publicKey, wrapped_keys: wrappedKeys() });
    expect((await vaultRequest(t, bob, 'GET', '/api/vault')).json()).toMatchObject({ enabled: false, public_key: null, wrapped_keys: null });
  });
});
