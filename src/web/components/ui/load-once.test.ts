import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './load-once';

describe('code loaded once', () => {
  it('downloads once however often it is asked for, and keeps what came', async () => {
    const load = vi.fn(() => Promise.resolve('menu'));
    const code = loadOnce(load);
    expect(code.loaded()).toBeNull();
    expect(await Promise.all([code.load(), code.load()])).toEqual(['menu', 'menu']);
    expect(await code.load()).toBe('menu');
    expect(code.loaded()).toBe('menu');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed download (offline) instead of keeping the failure', async () => {
    const load = vi.fn<() => Promise<string>>().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce('providers');
    const code = loadOnce(load);
    await expect(code.load()).rejects.toThrow('Failed to fetch');
    expect(code.loaded()).toBeNull();
    expect(await code.load()).toBe('providers');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
