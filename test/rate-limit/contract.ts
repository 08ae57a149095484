/**
 * The behavioural suite every RateLimiter must pass, run by memory.test.ts (injected clock) and
 * redis.test.ts (real time, several connections).
 *
 * Why a harness with "units": scenarios are written for a 1000-unit window. The memory harness
 * maps a unit to 1 ms of a fake clock; the Redis harness maps it to a fraction of a real ms, so
 * the same sliding-window scenario runs against Redis's own clock in well under a second. Real
 * time is never exact, so shared scenarios keep every probe at least 5% of a window away from a
 * boundary; the millisecond-exact boundaries are tested on the fake clock in memory.test.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RateLimitDecision, RateLimiter } from '../../src/rate-limit/limiter.ts';

export interface LimiterHarness {
  /** Handles that share one store ("several instances"); `clients[0]` is the default one. */
  readonly clients: readonly [RateLimiter, ...RateLimiter[]];
  /** Real milliseconds for a duration written in units. */
  ms(units: number): number;
  /** Starts the scenario clock at unit 0. */
  begin(): void;
  /** Resolves when the scenario clock reaches `units`. */
  at(units: number): Promise<void>;
  /** A key no other test or run uses. */
  key(name: string): string;
  dispose(): Promise<void>;
}

/** Real milliseconds per scenario unit on a real clock (Redis's): a 1000-unit window lasts 800 ms, short yet far from timer jitter. */
export const MS_PER_UNIT = 0.8;

/**
 * A harness on real time for `clients` that share one store (a Redis, a Redis Cluster).
 *
 * @example
 *   const h = realTimeHarness(limiters, { key: (name) => `{shp_1}:${name}`, dispose: () => redis.quit() });
 */
export function realTimeHarness(
  clients: readonly RateLimiter[],
  options: { key(name: string): string; dispose(): Promise<void> },
): LimiterHarness {
  const [first, ...others] = clients;
  if (first === undefined) throw new Error('no connection');
  let start = performance.now();
  return {
    clients: [first, ...others],
    ms: (units) => Math.round(units * MS_PER_UNIT),
    begin: () => {
      start = performance.now();
    },
    at: async (units) => {
      const wait = start + units * MS_PER_UNIT - performance.now();
      if (wait > 0) await sleep(wait);
    },
    key: options.key,
    dispose: async () => {
      await Promise.all(clients.map((limiter) => limiter.close()));
      await options.dispose();
    },
  };
}

/** Retry-After/reset that a wait of `units` maps to: whole seconds, rounded up, at least 1. */
const seconds = (h: LimiterHarness, units: number): number => Math.max(1, Math.ceil(h.ms(units) / 1000));

const allowed = (d: RateLimitDecision): boolean => d.allowed;

export function describeRateLimiterContract(name: string, createHarness: () => Promise<LimiterHarness>): void {
  describe(`${name}: rate limiter contract`, () => {
    const withHarness = (run: (h: LimiterHarness) => Promise<void>) => async () => {
      const h = await createHarness();
      try {
        await run(h);
      } finally {
        await h.dispose();
      }
    };

    it(
      'allows exactly `limit` requests, then denies',
      withHarness(async (h) => {
        const key = h.key('exact');
        const window = h.ms(10_000);
        h.begin();
        const decisions: RateLimitDecision[] = [];
        for (let i = 0; i < 7; i += 1) decisions.push(await h.clients[0].hit(key, 5, window));

        expect(decisions.slice(0, 5)).toEqual(
          [4, 3, 2, 1, 0].map((remaining) => ({ allowed: true, limit: 5, remaining, resetSeconds: seconds(h, 10_000) })),
        );
        for (const denied of decisions.slice(5)) {
          expect(denied).toMatchObject({ allowed: false, limit: 5, remaining: 0 });
        }
      }),
    );

    it(
      'does not count a denied request',
      withHarness(async (h) => {
        const key = h.key('denied-free');
        const window = h.ms(1000);
        h.begin();
        expect((await h.clients[0].hit(key, 2, window)).allowed).toBe(true);
        await h.at(500);
        expect((await h.clients[0].hit(key, 2, window)).allowed).toBe(true);
        await h.at(600);
        for (let i = 0; i < 5; i += 1) expect((await h.clients[0].hit(key, 2, window)).allowed).toBe(false);
        // Only the request of unit 0 has left. Had the denials counted, the key would stay full.
        await h.at(1100);
        expect(await h.clients[0].hit(key, 2, window)).toMatchObject({ allowed: true, remaining: 0 });
        expect((await h.clients[0].hit(key, 2, window)).allowed).toBe(false);
      }),
    );

    it(
      'frees slots one by one as the oldest requests leave the window (sliding, not fixed)',
      withHarness(async (h) => {
        const key = h.key('sliding');
        const window = h.ms(1000);
        const hit = () => h.clients[0].hit(key, 3, window);
        h.begin();
        expect(await hit()).toMatchObject({ allowed: true, remaining: 2 });
        await h.at(400);
        expect(await hit()).toMatchObject({ allowed: true, remaining: 1 });
        await h.at(800);
        expect(await hit()).toMatchObject({ allowed: true, remaining: 0 });
        await h.at(900);
        expect(await hit()).toEqual({
          allowed: false,
          limit: 3,
          remaining: 0,
          retryAfterSeconds: seconds(h, 100),
          resetSeconds: seconds(h, 900),
        });
        await h.at(1050); // the request of unit 0 has left: exactly one slot
        expect(await hit()).toMatchObject({ allowed: true, remaining: 0 });
        await h.at(1100);
        expect((await hit()).allowed).toBe(false);
        await h.at(1350); // a fixed 1000-unit bucket would have reset at 1000 and allowed 3 here
        expect((await hit()).allowed).toBe(false);
        await h.at(1450); // the request of unit 400 has left
        expect(await hit()).toMatchObject({ allowed: true, remaining: 0 });
        expect((await hit()).allowed).toBe(false);
      }),
    );

    it(
      'reports Retry-After as the whole seconds until a slot frees, rounded up',
      withHarness(async (h) => {
        const key = h.key('retry');
        const window = h.ms(2500);
        h.begin();
        expect((await h.clients[0].hit(key, 1, window)).allowed).toBe(true);
        const denied = await h.clients[0].hit(key, 1, window);
        // The memory clock has not moved (2.5 s -> 3); on Redis a few µs have passed (2 s - ε -> 2).
        expect(denied).toEqual({
          allowed: false,
          limit: 1,
          remaining: 0,
          retryAfterSeconds: seconds(h, 2500),
          resetSeconds: seconds(h, 2500),
        });
      }),
    );

    it(
      'keeps separate keys independent',
      withHarness(async (h) => {
        const [a, b] = [h.key('a'), h.key('b')];
        const window = h.ms(10_000);
        h.begin();
        expect((await h.clients[0].hit(a, 1, window)).allowed).toBe(true);
        expect((await h.clients[0].hit(b, 1, window)).allowed).toBe(true);
        expect((await h.clients[0].hit(a, 1, window)).allowed).toBe(false);
        expect((await h.clients[0].hit(b, 1, window)).allowed).toBe(false);
        expect((await h.clients[0].hit(h.key('c'), 2, window)).allowed).toBe(true);
      }),
    );

    it(
      'allows exactly `limit` of many concurrent hits from several clients',
      withHarness(async (h) => {
        const key = h.key('concurrent');
        const window = h.ms(10_000);
        h.begin();
        const decisions = await Promise.all(
          Array.from({ length: 50 }, (_, i) => {
            const client = h.clients[i % h.clients.length] ?? h.clients[0];
            return client.hit(key, 20, window);
          }),
        );
        const granted = decisions.filter(allowed);
        expect(granted).toHaveLength(20);
        // Each granted hit saw a distinct count: no two clients took the same slot.
        expect(granted.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        expect((await h.clients[0].hit(key, 20, window)).allowed).toBe(false);
      }),
    );

    it(
      'rejects a limit or window that can only be a programming error',
      withHarness(async (h) => {
        const key = h.key('invalid');
        await expect(h.clients[0].hit(key, 0, 1000)).rejects.toThrow(RangeError);
        await expect(h.clients[0].hit(key, 1.5, 1000)).rejects.toThrow(RangeError);
        await expect(h.clients[0].hit(key, 1, 0)).rejects.toThrow(RangeError);
        await expect(h.clients[0].hit(key, 1, Number.NaN)).rejects.toThrow(RangeError);
      }),
    );
  });
}
