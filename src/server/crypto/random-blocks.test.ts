import { describe, expect, it } from 'vitest';
import { randomSlice } from './random-blocks';

describe('random slices', () => {
  it('never hand out the same bytes twice, across the blocks they are cut from', () => {
    // Odd lengths, so slices end at every offset of a block and some would run past its end.
    const slices = Array.from({ length: 3_000 }, (_, i) => randomSlice(7 + (i % 13)));
    slices.forEach((slice, i) => expect(slice).toHaveLength(7 + (i % 13)));
    // Overlapping slices of one block share bytes: their first 7 bytes would repeat.
    expect(new Set(slices.map((slice) => slice.subarray(0, 7).toString('hex'))).size).toBe(slices.length);
  });

  it('are the caller’s to change: writing into one leaves the next untouched', () => {
    const first = randomSlice(16);
    const next = randomSlice(16);
    const before = Buffer.from(next);
    first.fill(0);
    expect(next).toEqual(before);
  });

  it('refuse a length longer than a block', () => {
    expect(() => randomSlice(8193)).toThrow(RangeError);
  });
});
