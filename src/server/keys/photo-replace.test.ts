import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalDiskStorage } from '../providers/storage/local-disk';

describe('replacing a photo file on local disk (key rotation)', () => {
  const root = mkdtempSync(join(tmpdir(), 'jotline-replace-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('swaps the bytes whole, owner-only, with nothing left beside the file', async () => {
    const storage = createLocalDiskStorage(root);
    await storage.put('user-1/entry-1/100-aa.jpg', Buffer.from('encrypted under the old key'), 'application/octet-stream');
    await storage.replace('user-1/entry-1/100-aa.jpg', Buffer.from('encrypted under the new key'), 'application/octet-stream');
    const path = join(root, 'user-1/entry-1/100-aa.jpg');
    expect(readFileSync(path, 'utf8')).toBe('encrypted under the new key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(root, 'user-1/entry-1'))).toEqual(['100-aa.jpg']);
  });

  it('leaves what was there, and no half-written file, when the swap fails', async () => {
    const storage = createLocalDiskStorage(root);
    // Something that is not a file stands at the key: the rename over it fails.
    mkdirSync(join(root, 'user-2/entry/1-bb.jpg'), { recursive: true });
    await expect(storage.replace('user-2/entry/1-bb.jpg', Buffer.from('new'), 'application/octet-stream')).rejects.toThrow();
    expect(readdirSync(join(root, 'user-2/entry'))).toEqual(['1-bb.jpg']);
    expect(statSync(join(root, 'user-2/entry/1-bb.jpg')).isDirectory()).toBe(true);
    await expect(storage.replace('../escape.jpg', Buffer.from('new'), 'application/octet-stream')).rejects.toThrow(/Invalid storage key/);
  });
});
