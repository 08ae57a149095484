/**
 * The Lua scripts behind redis.ts: one sliding-window hit, atomic inside Redis, and a batch of
 * such hits in one call (redis-batch.ts).
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
 * Removes a lease's slots `first`..`last` (members "<score>:<nonce>:<slot>") from `key` and
 * returns how many were still there: the give-back of unused leased slots, alone (GIVE_BACK_LUA)
 * or at the start of a key's next call (SLIDING_WINDOW_LUA).
 */
const GIVE_BACK_FUNCTION = `
local function give_back(key, score, nonce, first, last)
  local members = {}
  for i = tonumber(first), tonumber(last) do
    members[#members + 1] = score .. ':' .. nonce .. ':' .. i
  end
  local removed = 0
  for i = 1, #members, 400 do
    removed = removed + redis.call('ZREM', key, unpack(members, i, math.min(i + 399, #members)))
  end
  return removed
end`;

/**
 * KEYS[1]  sorted set of allowed requests: score = Redis time in µs, member = "<µs>:<nonce>"
 * KEYS[2]  optional: a shop's version key (cache/shop-versions.ts), read in this same round trip
 *          and seeded with ARGV[3] for ARGV[4] ms when missing
 * KEYS[3]  optional, with KEYS[2]: the shop's lease fence (shop-versions.ts), raised to the end
 *          of a granted lease so a version bump can wait for every lease read under the old one
 * ARGV[1]  limit
 * ARGV[2]  window in ms
 * ARGV[3]  nonce unique to this call, so two hits in the same microsecond are two members
 * ARGV[4]  the version key's TTL in ms (ignored without KEYS[2])
 * ARGV[5]  lease: slots wanted beyond this request (0: none; lease.ts says when and how many)
 * ARGV[6]  lease lifetime in ms
 * ARGV[7]  "1": a renewal, sent ahead of a lease's end: reserve the lease only, count no request
 * ARGV[8]..ARGV[11]  optional: an ended lease of this key to give back first (its score, its
 *          nonce, the first and last slot number unused), as GIVE_BACK_LUA would: a busy key's
 *          next call carries it rather than a call of its own
 * Returns  { allowed (1|0), entries after the call, µs until a slot frees, µs until the set is
 *          empty, slots leased, the leased entries' score as a string ("0" when none)
 *          [, the shop's version] }
 *
 * A lease is granted only beside an allowed request (or as a renewal while a slot is free), at
 * most limit / 16 slots, and only while half the limit stays free after it: near the limit
 * every request makes its own call. Leased
 * entries are scored at the lease's end (now + lifetime), not now, so each stays in the window
 * at least as long as the request it will stand for, which is served before the lease ends.
 */
const SLIDING_WINDOW_FUNCTION = `
local function sliding_window(KEYS, ARGV)
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])
local window_us = window_ms * 1000
local nonce = ARGV[3]
local wanted = tonumber(ARGV[5])
local lease_ms = tonumber(ARGV[6])
local version = nil
if KEYS[2] then
  version = redis.call('GET', KEYS[2])
  if not version then
    version = nonce
    redis.call('SET', KEYS[2], version, 'PX', ARGV[4])
  end
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])

-- an entry at ts is inside the window iff ts > now - window
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%.0f', now - window_us))
if ARGV[8] then give_back(key, ARGV[8], ARGV[9], ARGV[10], ARGV[11]) end
local count = redis.call('ZCARD', key)

local renewal = ARGV[7] == '1'
if count < limit then
  if not renewal then
    local score = string.format('%.0f', now)
    redis.call('ZADD', key, score, score .. ':' .. nonce)
    count = count + 1
  end
  local granted = math.min(wanted, math.floor(limit / 16), limit - count - math.ceil(limit / 2))
  local lease_score = '0'
  local ttl = window_ms
  if granted >= 2 then
    lease_score = string.format('%.0f', now + lease_ms * 1000)
    local members = {}
    for i = 1, granted do
      members[#members + 1] = lease_score
      members[#members + 1] = lease_score .. ':' .. nonce .. ':' .. i
      if #members >= 400 then
        redis.call('ZADD', key, unpack(members))
        members = {}
      end
    end
    if #members > 0 then redis.call('ZADD', key, unpack(members)) end
    count = count + granted
    ttl = window_ms + lease_ms
    if KEYS[3] then
      local fence = tonumber(redis.call('GET', KEYS[3]) or '0')
      if now + lease_ms * 1000 > fence then redis.call('SET', KEYS[3], lease_score, 'PX', lease_ms + 1000) end
    end
  else
    granted = 0
  end
  -- never shorten the life of entries scored in the future (an earlier lease's)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
  return { 1, count, 0, window_us, granted, lease_score, version }
end

-- the next slot frees when the entry at index count - limit leaves (the oldest one, unless the
-- limit of this key was lowered since those entries were added)
local blocking = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
local slot_frees = tonumber(blocking[2]) + window_us - now
-- entries scored in the future are leased slots: if the window is full only because of them,
-- a slot frees when their lease ends (the unused ones go back then), not with the oldest entry
local leased = redis.call('ZCOUNT', key, '(' .. string.format('%.0f', now), '+inf')
if leased > 0 and count - leased < limit then
  slot_frees = math.min(slot_frees, tonumber(newest[2]) - now)
end
return { 0, count, slot_frees, tonumber(newest[2]) + window_us - now, 0, '0', version }
end`;

export const SLIDING_WINDOW_LUA = `${GIVE_BACK_FUNCTION}${SLIDING_WINDOW_FUNCTION}
if redis.replicate_commands then redis.replicate_commands() end
return sliding_window(KEYS, ARGV)
`;

export const SLIDING_WINDOW_SHA = createHash('sha1').update(SLIDING_WINDOW_LUA).digest('hex');

/**
 * Several hits in one call (redis-batch.ts): each runs the single-hit script above on its own
 * KEYS and ARGV, one after the other in the order sent, inside one atomic script, so the batch
 * decides exactly as the same hits sent one by one with nothing between them; several hits of
 * one key each see the ones before them.
 * KEYS     every hit's keys, hit after hit
 * ARGV     per hit: how many keys it has, how many arguments, then its arguments
 * Returns  one reply per hit, as SLIDING_WINDOW_LUA returns it
 */
export const SLIDING_WINDOW_BATCH_LUA = `${GIVE_BACK_FUNCTION}${SLIDING_WINDOW_FUNCTION}
if redis.replicate_commands then redis.replicate_commands() end
local replies = {}
local k, a = 1, 1
while a <= #ARGV do
  local key_count, arg_count = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local keys, args = {}, {}
  for i = 1, key_count do keys[i] = KEYS[k + i - 1] end
  for i = 1, arg_count do args[i] = ARGV[a + 1 + i] end
  k = k + key_count
  a = a + 2 + arg_count
  replies[#replies + 1] = sliding_window(keys, args)
end
return replies
`;

export const SLIDING_WINDOW_BATCH_SHA = createHash('sha1').update(SLIDING_WINDOW_BATCH_LUA).digest('hex');

export interface SlidingWindowReply {
  allowed: boolean;
  count: number;
  slotFreesInUs: number;
  emptyInUs: number;
  /** Slots leased beyond this request (0 when none were asked for or granted). */
  leased: number;
  /** The score (Redis µs) of the leased entries, as the script wrote it; "0" without a lease. */
  leaseScore: string;
  /** The shop's version token, when the call asked for it. */
  version?: string;
}

/**
 * Checks the script's reply shape; anything else is an infrastructure fault and throws.
 *
 * @example
 * parseSlidingWindowReply([1, 3, 0, 60_000_000, 0, '0']); // { allowed: true, count: 3, slotFreesInUs: 0, emptyInUs: 60000000, leased: 0, leaseScore: '0' }
 * parseSlidingWindowReply([1, 3, 0, 60_000_000, 0, '0', 'c0ffee']).version; // 'c0ffee'
 */
export function parseSlidingWindowReply(reply: unknown): SlidingWindowReply {
  const values: readonly unknown[] = Array.isArray(reply) ? reply : [];
  const [allowed, count, slotFreesInUs, emptyInUs, leased, leaseScore, version] = values;
  // Lua's nil ends an array reply, so a call without KEYS[2] has six elements.
  if (values.length === 7 && typeof version === 'string') {
    return { ...parseSlidingWindowReply(values.slice(0, 6)), version };
  }
  if (
    values.length === 6 &&
    typeof allowed === 'number' &&
    typeof count === 'number' &&
    typeof slotFreesInUs === 'number' &&
    typeof emptyInUs === 'number' &&
    typeof leased === 'number' &&
    typeof leaseScore === 'string'
  ) {
    return { allowed: allowed === 1, count, slotFreesInUs, emptyInUs, leased, leaseScore };
  }
  throw new Error(`unexpected reply from the rate limit script: ${JSON.stringify(reply)}`);
}

/**
 * KEYS[1] the sorted set; ARGV[1] the leased entries' score, ARGV[2] the nonce of the call that
 * leased them, ARGV[3]..ARGV[4] the first and last slot number to give back. Returns how many
 * were still there.
 */
export const GIVE_BACK_LUA = `${GIVE_BACK_FUNCTION}
return give_back(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
`;
