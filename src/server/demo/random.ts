/** A random source in [0, 1). */
export type Random = () => number;

/** A small seeded generator (mulberry32), so every demo journal reads the same. */
export function seededRandom(seed: number): Random {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One item of a list, chosen at random. */
export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** `count` different items of a list, in random order. */
export function pickSome<T>(random: Random, list: readonly T[], count: number): T[] {
  const pool = [...list];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return chosen;
}
