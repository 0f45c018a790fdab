import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff';
import { eachAtOnce, workOffClaims } from './claim';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A queue of due work claimed by compare-and-set, as the tables' claims are. */
function queue(size: number) {
  const owner = new Map<number, string>();
  const handled: number[] = [];
  const claim = async (worker: string, room: number) => {
    await tick();
    const won = [...Array(size).keys()].filter((i) => !owner.has(i)).slice(0, Math.min(room, 3));
    for (const i of won) owner.set(i, worker);
    return won.length ? { rows: won } : null;
  };
  return { owner, handled, claim };
}

describe('the claim loop', () => {
  it('claims batch after batch until nothing is due, and two workers never handle the same row', async () => {
    const q = queue(20);
    const worker = (name: string) =>
      workOffClaims({
        claim: (room) => q.claim(name, room),
        handle: async (rows) => {
          await tick();
          q.handled.push(...rows);
        },
      });
    await Promise.all([worker('a'), worker('b')]);
    expect([...q.handled].sort((x, y) => x - y)).toEqual([...Array(20).keys()]);
    expect(new Set(q.owner.values())).toEqual(new Set(['a', 'b']));
  });

  it('stops at its limit, counting rows the claim settled itself, and offers the claim only the room left', async () => {
    const rooms: number[] = [];
    let handled = 0;
    await workOffClaims({
      limit: 7,
      claim: async (room) => {
        rooms.push(room);
        return { rows: [1, 2], used: 3 };
      },
      handle: async (rows) => void (handled += rows.length),
    });
    expect(rooms).toEqual([7, 4, 1]);
    expect(handled).toBe(6);
  });

  it('claims nothing more once the job is stopping', async () => {
    let stopping = false;
    let claims = 0;
    await workOffClaims({
      stopped: () => stopping,
      claim: async () => ({ rows: [++claims] }),
      handle: async () => void (stopping = claims === 2),
    });
    expect(claims).toBe(2);
  });

  it('runs a batch at most `concurrency` at a time, starting each in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await eachAtOnce([...Array(10).keys()], 3, async (i) => {
      started.push(i);
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(started).toEqual([...Array(10).keys()]);
    expect(most).toBe(3);
  });
});

describe('the backoff', () => {
  it('doubles from the first wait up to its cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffMs(n, 30_000, 3_600_000))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000]);
    expect(backoffMs(0, 10_000, 300_000)).toBe(10_000);
    expect(backoffMs(10_000, 10_000, 300_000)).toBe(300_000);
  });

  it('spreads a wait over its upper half when given a random source', () => {
    expect(backoffMs(3, 10_000, 300_000, () => 0)).toBe(20_000);
    expect(backoffMs(3, 10_000, 300_000, () => 0.5)).toBe(30_000);
    expect(backoffMs(3, 10_000, 300_000, () => 1)).toBe(40_000);
  });
});
