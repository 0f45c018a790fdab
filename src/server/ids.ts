import { randomInt, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

export const newId = (): string => randomUUID();

/**
 * A UUID of version 7 (RFC 9562, `uuid`'s v7): the time in milliseconds, then a 32-bit counter and
 * random bits. Rows keyed by it are added at the end of their table's primary-key index, and ids
 * made in this process sort in the order they were made, within a millisecond too (the counter,
 * kept here because `at` is the app's clock, which uuid's own counter does not follow), so texts
 * that arrive together are processed in the order they came. It tells when it was made, so it is
 * for rows, never for tokens or anything a guess must not reach.
 */
export function newTimeOrderedId(at: Date): string {
  const ms = at.getTime();
  if (ms > last.msecs) last = { msecs: ms, seq: randomInt(0x80000000) };
  else {
    // The same millisecond (or the clock went back): one more in the sequence, as uuid counts it.
    last.seq = (last.seq + 1) | 0;
    if (last.seq === 0) last.msecs += 1;
  }
  return uuidv7({ msecs: last.msecs, seq: last.seq });
}

let last = { msecs: -Infinity, seq: 0 };

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
