import { describe, expect, it } from 'vitest';
import { isUuid, newTimeOrderedId } from './ids';

describe('time-ordered ids', () => {
  const at = new Date('2027-03-14T15:09:26.535Z');

  it('are UUIDs of version 7 with the RFC variant, carrying the time in their first 48 bits', () => {
    // Ids never go back in time within a process: a time later than any id made before it (by other
    // test files sharing the process) is carried as it is.
    const at = new Date('2999-03-14T15:09:26.535Z');
    const id = newTimeOrderedId(at);
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at.getTime());
  });

  it('sort in the order they were made, and differ when made in the same millisecond', () => {
    const times = [0, 1, 2, 1000, 86_400_000, 10 * 365 * 86_400_000].map((ms) => new Date(at.getTime() + ms));
    const ids = times.map((time) => newTimeOrderedId(time));
    expect([...ids].sort()).toEqual(ids);
    const later = new Date(at.getTime() + 20 * 365 * 86_400_000);
    const sameInstant = Array.from({ length: 5000 }, () => newTimeOrderedId(later));
    expect(new Set(sameInstant).size).toBe(5000);
    expect([...sameInstant].sort()).toEqual(sameInstant);
  });
});
