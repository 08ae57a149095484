/**
 * Sends the limiter's script calls of one event-loop turn as one call per Redis slot.
 *
 * Why: with one key per shop, no key of a thousand shops is busy enough for a lease (lease.ts),
 * so every request made its own script call, and a call costs the app ~20 µs of CPU (a command
 * written, a reply parsed, a promise settled): the most of what a many-shop `GET /rules` costs
 * beyond one shop's (docs/performance.md "Many shops on PostgreSQL + Redis"). ioredis's
 * auto-pipelining saved the writes but cost as much in its bookkeeping. Here the hits that
 * arrive before the loop's check phase (`setImmediate`) wait for it and go as one
 * SLIDING_WINDOW_BATCH_LUA call, which runs the single-hit script for each of them in order,
 * atomically: the answers are those of the same calls sent one by one, back to back.
 *
 * A call alone in its turn goes as the single-hit script, as before. A failed batch call (an
 * error reply, a timeout, Redis down) fails every hit in it with that error, as each call would
 * have failed alone. On a Redis Cluster the keys of one script call must share a slot: hits are
 * grouped by their first key's hash tag (`{shp_…}`, which the hit's other keys share), so a
 * group never spans slots; two shops whose tags fall in one slot go in two calls, which costs
 * little since 1,000 shops spread over 16,384 slots rarely share one.
 */
import type { RedisClient } from '../redis/connection.ts';
import { isCluster } from '../redis/connection.ts';
import { SLIDING_WINDOW_BATCH_LUA, SLIDING_WINDOW_BATCH_SHA, SLIDING_WINDOW_LUA, SLIDING_WINDOW_SHA } from './redis-script.ts';

/** At most this many hits per call, so one script never holds Redis for long. */
export const MAX_BATCH_HITS = 64;

type PendingHit = { keys: readonly string[]; args: readonly string[]; resolve: (reply: unknown) => void; reject: (error: unknown) => void };

export interface ScriptBatcher {
  /** Runs SLIDING_WINDOW_LUA on `keys` and `args`, in a batch with the other hits of this turn; resolves to its own reply. */
  run(keys: readonly string[], args: readonly string[]): Promise<unknown>;
}

/**
 * The hash tag Redis Cluster hashes instead of the whole key: what lies between the first `{`
 * and the first `}` after it, when not empty (the Redis Cluster specification's rule).
 *
 * @example
 * hashTag('ratelimit:{shp_1}:key_2:default'); // 'shp_1'
 * hashTag('plain'); // undefined
 */
export function hashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  if (open === -1) return undefined;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}

/** Runs `lua` by its SHA, and by its text when Redis does not have it (after a restart or failover). */
export async function runScript(redis: RedisClient, lua: string, sha: string, keys: readonly string[], args: readonly string[]): Promise<unknown> {
  try {
    return await redis.evalsha(sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return redis.eval(lua, keys.length, ...keys, ...args);
    throw error;
  }
}

/**
 * A batcher over `redis`.
 *
 * @example
 * const batcher = createScriptBatcher(redis);
 * const reply = await batcher.run(['ratelimit:{shp_1}:key_2:default'], args); // as SLIDING_WINDOW_LUA replies
 */
export function createScriptBatcher(redis: RedisClient): ScriptBatcher {
  const cluster = isCluster(redis);
  let groups = new Map<string, PendingHit[]>();
  let scheduled = false;

  const send = async (hits: readonly PendingHit[]): Promise<void> => {
    const [first] = hits;
    if (hits.length === 1 && first !== undefined) {
      await runScript(redis, SLIDING_WINDOW_LUA, SLIDING_WINDOW_SHA, first.keys, first.args).then(first.resolve, first.reject);
      return;
    }
    const keys: string[] = [];
    const args: string[] = [];
    for (const hit of hits) {
      keys.push(...hit.keys);
      args.push(String(hit.keys.length), String(hit.args.length), ...hit.args);
    }
    let replies: unknown;
    try {
      replies = await runScript(redis, SLIDING_WINDOW_BATCH_LUA, SLIDING_WINDOW_BATCH_SHA, keys, args);
      if (!Array.isArray(replies) || replies.length !== hits.length) {
        throw new Error(`unexpected reply from the rate limit batch script: ${JSON.stringify(replies)}`);
      }
    } catch (error) {
      for (const hit of hits) hit.reject(error);
      return;
    }
    hits.forEach((hit, i) => hit.resolve((replies as unknown[])[i]));
  };

  const flush = (): void => {
    scheduled = false;
    const sending = groups;
    groups = new Map();
    for (const hits of sending.values()) {
      for (let from = 0; from < hits.length; from += MAX_BATCH_HITS) void send(hits.slice(from, from + MAX_BATCH_HITS));
    }
  };

  return {
    run: (keys, args) =>
      new Promise((resolve, reject) => {
        const group = cluster ? (hashTag(keys[0] ?? '') ?? keys[0] ?? '') : '';
        const hits = groups.get(group);
        if (hits === undefined) groups.set(group, [{ keys, args, resolve, reject }]);
        else hits.push({ keys, args, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }),
  };
}
