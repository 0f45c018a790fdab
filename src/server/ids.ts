import { randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/**
 * A UUID of version 7 (RFC 9562): the time in milliseconds, a 12-bit counter, then 62 random bits.
 * Rows keyed by it are added at the end of their table's primary-key index, and ids made in this
 * process sort in the order they were made, within a millisecond too (the counter), so texts that
 * arrive together are processed in the order they came. It tells when it was made, so it is for
 * rows, never for tokens or anything a guess must not reach.
 */
export function newTimeOrderedId(at: Date): string {
  let ms = at.getTime();
  if (ms <= lastMs) {
    ms = lastMs;
    counter += 1;
    if (counter > 0xfff) {
      ms = lastMs + 1;
      counter = 0;
    }
  } else counter = 0;
  lastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes.writeUInt16BE(0x7000 | counter, 6);
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let lastMs = 0;
let counter = 0;

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
