/**
 * The Lua script behind redis.ts: one sliding-window hit, atomic inside Redis.
 *
 * Why one script: check-then-add done as separate commands lets two app instances both see
 * "19 of 20" and both add, exceeding the limit. Redis runs a script without interleaving any
 * other command, so the prune, count and add below are one step for every client.
 *
 * Why Redis's clock: app instances' clocks are skewed; if each sent its own "now", entries would
 * be ordered and expired by different clocks. `TIME` inside the script gives every instance the
 * same clock. A script that reads TIME and then writes must be replicated by its effects, not
 * re-run on replicas: the default since Redis 5, requested explicitly for older servers.
 *
 * Scores are microseconds (about 1.7e15 today, exact in a double up to 2^53). They are formatted
 * with '%.0f' because Lua 5.1's tostring keeps only 14 significant digits.
 */
import { createHash } from 'node:crypto';

/**
 * KEYS[1]  sorted set of allowed requests: score = Redis time in µs, member = "<µs>:<nonce>"
 * ARGV[1]  limit
 * ARGV[2]  window in ms
 * ARGV[3]  nonce unique to this call, so two hits in the same microsecond are two members
 * KEYS[2]  optional: a shop's version key (cache/shop-versions.ts), read in this same round trip
 *          and seeded with ARGV[3] for ARGV[4] ms when missing
 * Returns  { allowed (1|0), entries after the call, µs until a slot frees, µs until the set is
 *          empty[, the shop's version] }
 */
export const SLIDING_WINDOW_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window_us = tonumber(ARGV[2]) * 1000
local version = nil
if KEYS[2] then
  version = redis.call('GET', KEYS[2])
  if not version then
    version = ARGV[3]
    redis.call('SET', KEYS[2], version, 'PX', ARGV[4])
  end
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])

-- an entry at ts is inside the window iff ts > now - window
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%.0f', now - window_us))
local count = redis.call('ZCARD', key)

if count < limit then
  local score = string.format('%.0f', now)
  redis.call('ZADD', key, score, score .. ':' .. ARGV[3])
  redis.call('PEXPIRE', key, ARGV[2])
  return { 1, count + 1, 0, window_us, version }
end

-- the next slot frees when the entry at index count - limit leaves (the oldest one, unless the
-- limit of this key was lowered since those entries were added)
local blocking = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
return { 0, count, tonumber(blocking[2]) + window_us - now, tonumber(newest[2]) + window_us - now, version }
`;

export const SLIDING_WINDOW_SHA = createHash('sha1').update(SLIDING_WINDOW_LUA).digest('hex');

export interface SlidingWindowReply {
  allowed: boolean;
  count: number;
  slotFreesInUs: number;
  emptyInUs: number;
  /** The shop's version token, when the call asked for it. */
  version?: string;
}

/**
 * Checks the script's reply shape; anything else is an infrastructure fault and throws.
 *
 * @example
 * parseSlidingWindowReply([1, 3, 0, 60_000_000]); // { allowed: true, count: 3, slotFreesInUs: 0, emptyInUs: 60000000 }
 * parseSlidingWindowReply([1, 3, 0, 60_000_000, 'c0ffee']).version; // 'c0ffee'
 */
export function parseSlidingWindowReply(reply: unknown): SlidingWindowReply {
  const values: readonly unknown[] = Array.isArray(reply) ? reply : [];
  const [allowed, count, slotFreesInUs, emptyInUs, version] = values;
  // Lua's nil ends an array reply, so a call without KEYS[2] has four elements.
  if (values.length === 5 && typeof version === 'string') {
    return { ...parseSlidingWindowReply(values.slice(0, 4)), version };
  }
  if (
    values.length === 4 &&
    typeof allowed === 'number' &&
    typeof count === 'number' &&
    typeof slotFreesInUs === 'number' &&
    typeof emptyInUs === 'number'
  ) {
    return { allowed: allowed === 1, count, slotFreesInUs, emptyInUs };
  }
  throw new Error(`unexpected reply from the rate limit script: ${JSON.stringify(reply)}`);
}
