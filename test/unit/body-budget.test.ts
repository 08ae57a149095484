/**
 * The unverified-body budget (src/http/body-budget.ts): bodies held at once never exceed it,
 * first come first served, and a client that leaves while waiting gives its place up.
 */
import { describe, expect, it } from 'vitest';
import { createBodyBudget } from '../../src/http/body-budget.ts';

const never = new AbortController().signal;

/** Which of `promises` have settled, after pending callbacks ran. */
async function settled(promises: Array<Promise<unknown>>): Promise<boolean[]> {
  const done = promises.map(() => false);
  promises.forEach((promise, index) =>
    promise.then(
      () => (done[index] = true),
      () => (done[index] = true),
    ),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('createBodyBudget', () => {
  it('admits bodies while they fit and the next in line as soon as one is released', async () => {
    const budget = createBodyBudget(10);
    const first = await budget.reserve(6, never);
    const second = budget.reserve(6, never);
    const third = budget.reserve(1, never);
    // The small third waits behind the second: a large body is never starved by small ones.
    expect(await settled([second, third])).toEqual([false, false]);
    expect(budget.inUse()).toBe(6);
    first();
    expect(await settled([second, third])).toEqual([true, true]);
    expect(budget.inUse()).toBe(7);
  });

  it('admits a body larger than the whole budget alone', async () => {
    const budget = createBodyBudget(10);
    const small = await budget.reserve(1, never);
    const huge = budget.reserve(50, never);
    expect(await settled([huge])).toEqual([false]);
    small();
    const release = await huge;
    expect(budget.inUse()).toBe(50);
    release();
    expect(budget.inUse()).toBe(0);
  });

  it('withdraws a waiter whose client left, rejecting with the reason and letting the next in', async () => {
    const budget = createBodyBudget(10);
    const holder = await budget.reserve(5, never);
    const leaving = new AbortController();
    const large = budget.reserve(8, leaving.signal);
    const small = budget.reserve(5, never);
    expect(await settled([large, small])).toEqual([false, false]);
    leaving.abort(new Error('gone'));
    await expect(large).rejects.toThrow('gone');
    await small;
    expect(budget.inUse()).toBe(10);
    holder();
    expect(budget.inUse()).toBe(5);
  });

  it('refuses at once for a client already gone, and a second release changes nothing', async () => {
    const budget = createBodyBudget(10);
    const gone = new AbortController();
    gone.abort(new Error('gone'));
    await expect(budget.reserve(1, gone.signal)).rejects.toThrow('gone');
    const release = await budget.reserve(4, never);
    release();
    release();
    expect(budget.inUse()).toBe(0);
  });
});
