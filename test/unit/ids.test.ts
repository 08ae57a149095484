/** Prefixed ids (src/ids.ts): unique, ordered, and fresh randomness for every new millisecond. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/ids.ts';

describe('newId', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('counts on within one millisecond, carrying past the last character', () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() - 10_000);
    // 500 ids in one millisecond (in the past, so later ids are not held to it): the last character wraps 8 times or more.
    const ids = Array.from({ length: 500 }, () => newId('req'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids.map((id) => id.slice(4, 12))).size).toBe(1);
    const carried = ids.filter((id, i) => i > 0 && id.slice(12, 19) !== ids[i - 1]?.slice(12, 19));
    expect(carried.length).toBeGreaterThanOrEqual(8);
  });

  it('gives unique ids in creation order, with new random digits in each millisecond', () => {
    const ids: string[] = [];
    // Three ids in each of 300 milliseconds: 2,400+ random bytes, so the id pool (1 KB) is refilled twice.
    for (let millis = 0; millis < 300; millis += 1) {
      const start = Date.now();
      ids.push(newId('req'), newId('req'), newId('req'));
      while (Date.now() === start) {
        // wait for the next millisecond
      }
    }
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // The random half of each millisecond's first id: drawn afresh, never a replay of the pool.
    const firstOfEachMilli = ids.filter((id, i) => i === 0 || id.slice(4, 12) !== ids[i - 1]?.slice(4, 12));
    const randomHalves = firstOfEachMilli.map((id) => id.slice(12));
    // About 300: three ids can straddle a millisecond, and a clock that steps back keeps the last one.
    expect(firstOfEachMilli.length).toBeGreaterThan(250);
    expect(new Set(randomHalves).size).toBe(randomHalves.length);
  });
});
