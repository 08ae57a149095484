/**
 * Redis-backed sliding-window rate limiter, shared by every app instance.
 *
 * Why: SPEC.md counts limits per API key, not per process, so several instances behind a load
 * balancer must share one window. Each key is a sorted set of allowed requests and one Lua
 * script (redis-script.ts) prunes, counts and adds atomically on Redis's clock, so concurrent
 * instances never exceed the limit and skewed app clocks do not matter.
 *
 * When a key is busy (lease.ts says when), the call made anyway also leases a few slots of the
 * shared window, and the next requests of this instance are answered
 * from them without Redis (lease.ts). Near the limit, and at ordinary rates, every request makes
 * its own call as before.
 *
 * The script is sent by EVALSHA and falls back to EVAL (which also caches it) on NOSCRIPT, after
 * a Redis restart or failover: one round trip in the common case. The calls of one event-loop
 * turn go as one script call per slot (redis-batch.ts), deciding each hit as its own call would. A call touches its window's
 * key and, when asked, the shop's version key (cache/shop-versions.ts), which is how
 * authentication learns that version without a second round trip. On a Redis Cluster the keys of
 * one call must share a hash slot: every key a script touches is passed in KEYS (none is built
 * inside Lua), and the window key carries the shop's hash tag, as its version and lease fence
 * keys do (policies.ts rateLimitKey).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/connection.ts';
import { LEASE_MS, leaseServes, renewalDue, slotsToAsk, unusedSlots } from './lease.ts';
import type { KeyState, Lease } from './lease.ts';
import { allowedDecision, assertHitArguments, deniedDecision } from './limiter.ts';
import type { CountedDecision, RateLimiter, VersionRead } from './limiter.ts';
import { createScriptBatcher, runScript } from './redis-batch.ts';
import { GIVE_BACK_LUA, parseSlidingWindowReply } from './redis-script.ts';

const GIVE_BACK_SHA = createHash('sha1').update(GIVE_BACK_LUA).digest('hex');

/** Key states idle this long are dropped by the sweep. */
const IDLE_MS = 1000;

export interface RedisRateLimiterOptions {
  /** Prepended to every key; defaults to "ratelimit:". */
  prefix?: string;
}

/**
 * Creates a limiter over an ioredis connection. The connection stays the caller's: `close()`
 * stops this limiter but does not quit the connection, which the wiring root may share.
 *
 * @example
 * const limiter = createRedisRateLimiter(new Redis(config.redisUrl), { prefix: 'gcr:rl:' });
 * const decision = await limiter.hit(rateLimitKey(shopId, apiKeyId, RATE_LIMIT_POLICIES.default), 120, 60_000);
 */
export function createRedisRateLimiter(redis: RedisClient, options: RedisRateLimiterOptions = {}): RateLimiter {
  const prefix = options.prefix ?? 'ratelimit:';
  const states = new Map<string, KeyState>();
  let closed = false;

  const batcher = createScriptBatcher(redis);

  // Unused slots go back in one call. Sent on the same connection as the key's next call, so
  // Redis runs it first. If it fails, the entries leave with the window: only stricter.
  const giveBack = (redisKey: string, lease: Lease): Promise<void> => {
    if (lease.returned) return Promise.resolve();
    lease.returned = true;
    clearTimeout(lease.timer);
    if (lease.used >= lease.granted) return Promise.resolve();
    const args = [lease.score, lease.nonce, String(lease.used + 1), String(lease.granted)];
    return runScript(redis, GIVE_BACK_LUA, GIVE_BACK_SHA, [redisKey], args).then(
      () => {},
      () => {},
    );
  };

  const sweep = setInterval(() => {
    const now = performance.now();
    for (const [key, state] of states) {
      if (state.inflight === 0 && unusedSlots(state.lease) === 0 && now - state.touchedAt > IDLE_MS) states.delete(key);
    }
  }, 10_000);
  sweep.unref();

  /**
   * One script call for `key`: counts a request (or, for a renewal, none) and leases `wanted`
   * slots when the script grants them; installs the lease before resolving.
   */
  const call = async (state: KeyState, key: string, limit: number, windowMs: number, version: VersionRead | undefined, wanted: number, renewal: boolean, ended?: Lease) => {
    const sentAt = performance.now();
    const redisKey = prefix + key;
    // The nonce also seeds a missing version key: it is unique, so a seeded token is never reused.
    const nonce = randomUUID();
    const args = [String(limit), String(windowMs), nonce, String(version?.ttlMs ?? 0), String(wanted), String(LEASE_MS), renewal ? '1' : '0'];
    if (ended !== undefined && !ended.returned) {
      // The key's previous lease goes back in this call (the script removes its unused entries
      // before counting); if the call fails they leave with the window: only stricter.
      ended.returned = true;
      clearTimeout(ended.timer);
      if (ended.used < ended.granted) args.push(ended.score, ended.nonce, String(ended.used + 1), String(ended.granted));
    }
    const keys = version === undefined ? [redisKey] : [redisKey, version.key, ...(wanted > 0 ? [version.fenceKey] : [])];
    state.inflight += 1;
    let settle = (): void => {};
    if (wanted > 0) state.leasing = new Promise<void>((resolve) => (settle = resolve));
    let reply;
    try {
      reply = parseSlidingWindowReply(await batcher.run(keys, args));
    } catch (error) {
      state.inflight -= 1;
      if (wanted > 0) state.leasing = undefined;
      settle();
      throw error;
    }
    state.inflight -= 1;
    if (wanted > 0) {
      state.leasing = undefined;
      state.leaseRefused = reply.leased === 0;
    }
    if (reply.leased > 0 && !closed) {
      // A renewal replaces a lease that may still have a few slots: they go back.
      if (state.lease !== undefined) void giveBack(redisKey, state.lease);
      const lease: Lease = {
        limit,
        windowMs,
        versionRead: version,
        version: reply.version,
        score: reply.leaseScore,
        nonce,
        granted: reply.leased,
        used: 0,
        sentAt,
        expiresAt: sentAt + LEASE_MS,
        exhaustedAt: undefined,
        returned: false,
        timer: undefined,
      };
      // A little after its end, so that a busy key's next call carries it back instead.
      lease.timer = setTimeout(() => void giveBack(redisKey, lease), Math.max(0, lease.expiresAt - performance.now()) + LEASE_MS);
      lease.timer.unref();
      state.lease = lease;
    }
    // Now, not in the caller's continuation: a later reply may install a lease before that runs.
    // Redis counted this instance's unused leased slots too; they are not requests (yet).
    const counted = reply.count - unusedSlots(state.lease);
    if (!renewal && reply.allowed) state.counted = counted;
    // The requests waiting for this lease go on now, after it is installed.
    settle();
    return { reply, counted, leaseEnds: unusedSlots(state.lease) > 0 ? state.lease?.expiresAt : undefined };
  };

  const renew = (state: KeyState, key: string, lease: Lease, now: number): void => {
    const wanted = slotsToAsk(state, now);
    if (wanted === 0) return;
    // Nobody waits for it; a failure only means the next requests make their own calls.
    call(state, key, lease.limit, lease.windowMs, lease.versionRead, wanted, true).catch(() => {});
  };

  const fromLease = (state: KeyState, key: string, lease: Lease, now: number): CountedDecision => {
    lease.used += 1;
    state.counted += 1;
    state.gapMs = now - state.touchedAt;
    state.touchedAt = now;
    if (lease.used === lease.granted) {
      lease.exhaustedAt = now;
      lease.returned = true;
      clearTimeout(lease.timer);
    } else if (renewalDue(state, lease, now)) {
      renew(state, key, lease, now);
    }
    // The leased entry leaves the window `windowMs` after the lease's end.
    const decision: CountedDecision = allowedDecision(lease.limit, state.counted, lease.windowMs + lease.expiresAt - now);
    if (lease.version !== undefined) decision.version = lease.version;
    return decision;
  };

  const hit = async (key: string, limit: number, windowMs: number, version?: VersionRead): Promise<CountedDecision> => {
    if (closed) throw new Error('redis rate limiter is closed');
    assertHitArguments(limit, windowMs);
    let sentAt = performance.now();
    const versionKey = version?.key;
    let state = states.get(key);
    if (state !== undefined && leaseServes(state.lease, limit, windowMs, versionKey, sentAt)) {
      return fromLease(state, key, state.lease, sentAt);
    }
    // A lease of this key is on its way: its answer comes before one to a call sent now. A
    // request that finds it used up by those that waited before it waits for one more at most.
    for (let waits = 0; waits < 2 && state?.leasing !== undefined && !state.leaseRefused; waits += 1) {
      await state.leasing;
      sentAt = performance.now();
      if (leaseServes(state.lease, limit, windowMs, versionKey, sentAt)) return fromLease(state, key, state.lease, sentAt);
    }
    if (state === undefined) {
      state = { lease: undefined, inflight: 0, leasing: undefined, leaseRefused: false, counted: 0, touchedAt: sentAt, gapMs: Infinity };
      states.set(key, state);
    } else {
      state.gapMs = sentAt - state.touchedAt;
    }
    state.touchedAt = sentAt;

    const { reply, counted, leaseEnds } = await call(state, key, limit, windowMs, version, slotsToAsk(state, sentAt), false, state.lease);
    const now = performance.now();
    let decision;
    if (reply.allowed) {
      decision = allowedDecision(limit, counted, windowMs + Math.max(0, (leaseEnds ?? now) - now));
    } else if (leaseServes(state.lease, limit, windowMs, versionKey, now)) {
      // Refused while this instance holds free slots of the key (a lease that came back while
      // this call was in flight): they are this request's as much as any other's.
      return fromLease(state, key, state.lease, now);
    } else {
      decision = deniedDecision(limit, reply.slotFreesInUs / 1000, reply.emptyInUs / 1000);
    }
    return reply.version === undefined ? decision : { ...decision, version: reply.version };
  };

  // The first step of `hit`, alone: a live lease of this instance answers at once.
  const hitNow = (key: string, limit: number, windowMs: number, version?: VersionRead, expectedVersion?: string): CountedDecision | undefined => {
    if (closed) return undefined;
    assertHitArguments(limit, windowMs);
    const state = states.get(key);
    const now = performance.now();
    if (state === undefined || !leaseServes(state.lease, limit, windowMs, version?.key, now)) return undefined;
    if (expectedVersion !== undefined && state.lease.version !== expectedVersion) return undefined;
    return fromLease(state, key, state.lease, now);
  };

  return {
    hit,
    hitNow,
    close: async () => {
      closed = true;
      clearInterval(sweep);
      const live = [...states].flatMap(([key, state]) => (state.lease === undefined ? [] : [giveBack(prefix + key, state.lease)]));
      states.clear();
      await Promise.all(live);
    },
  };
}
