import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/jotline-key-config', LOG_LEVEL: 'silent' };
const key = () => randomBytes(32).toString('base64');

describe('MASTER_KEY_PREVIOUS', () => {
  it('is read beside MASTER_KEY while a key is rotated', () => {
    const [next, previous] = [key(), key()];
    const config = loadConfig({ ...base, MASTER_KEY: next, MASTER_KEY_PREVIOUS: previous });
    expect(config.previousMasterKey!.toString('base64')).toBe(previous);
    expect(loadConfig({ ...base, MASTER_KEY: next }).previousMasterKey).toBeUndefined();
  });

  it('stops the start with a message naming it when it is malformed or set alone', () => {
    expect(() => loadConfig({ ...base, MASTER_KEY: key(), MASTER_KEY_PREVIOUS: 'c2hvcnQ=' })).toThrow(/MASTER_KEY_PREVIOUS: must be 32 bytes, base64-encoded/);
    expect(() => loadConfig({ ...base, MASTER_KEY_PREVIOUS: key() })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MASTER_KEY_PREVIOUS: key() })).toThrow(/MASTER_KEY_PREVIOUS: set only beside MASTER_KEY/);
  });
});
