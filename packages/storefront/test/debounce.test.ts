import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDebouncer, isCartMutationUrl } from '../src/index.ts';

describe('createDebouncer (re-evaluate evaluationDelay ms after the last cart call)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs once, delay ms after the last of a burst', () => {
    const run = vi.fn();
    const debouncer = createDebouncer(run, () => 300);
    debouncer.schedule();
    vi.advanceTimersByTime(200);
    debouncer.schedule();
    vi.advanceTimersByTime(200);
    debouncer.schedule();
    vi.advanceTimersByTime(299);
    expect(run).not.toHaveBeenCalled();
    expect(debouncer.pending).toBe(true);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(debouncer.pending).toBe(false);
  });

  it('reads the delay when scheduling (the payload arrives after the first cart call) and treats 0 or less as next tick', () => {
    let delay = -5;
    const run = vi.fn();
    const debouncer = createDebouncer(run, () => delay);
    debouncer.schedule();
    vi.advanceTimersByTime(0);
    expect(run).toHaveBeenCalledTimes(1);
    delay = 1000;
    debouncer.schedule();
    vi.advanceTimersByTime(999);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('cancel drops a pending run', () => {
    const run = vi.fn();
    const debouncer = createDebouncer(run, () => 50);
    debouncer.schedule();
    debouncer.cancel();
    vi.advanceTimersByTime(1000);
    expect(run).not.toHaveBeenCalled();
  });

  it('uses the timers it is given', () => {
    const calls: number[] = [];
    const timers = { setTimeout: (callback: () => void, ms: number) => (calls.push(ms), callback()), clearTimeout: () => {} };
    const run = vi.fn();
    createDebouncer(run, () => 70, timers).schedule();
    expect(calls).toEqual([70]);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('isCartMutationUrl (the page calls the script watches)', () => {
  it.each([
    '/cart/add.js',
    '/cart/add',
    '/cart/change.js',
    '/cart/update.js',
    '/cart/clear.js',
    '/cart/add.json',
    '/fr/cart/add.js',
    '/en-us/cart/change.js?sections=cart-drawer',
    'https://shop.example/cart/update.js',
    '/cart/add.js#x',
  ])('%s is watched', (url) => {
    expect(isCartMutationUrl(url)).toBe(true);
  });

  it.each(['/cart.js', '/cart', '/cart/shipping_rates.json', '/apps/gifts/rules', '/cart/additional.js', '/products/cart/addx', '/cart/add.jsx'])('%s is not', (url) => {
    expect(isCartMutationUrl(url)).toBe(false);
  });
});
