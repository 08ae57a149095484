/**
 * Local leases of sliding-window slots (docs/performance.md "GET /rules throughput"): the part
 * of the Redis limiter that decides, without Redis, whether a request may be served from slots
 * this instance has already reserved in the shared window.
 *
 * Why: on PostgreSQL + Redis every API request waited for one Redis round trip, which under
 * load is as long as the whole request of a bare server. When a key is busy (several requests
 * within one lease's lifetime, at once or one after another), the call that is made anyway also
 * reserves a few more slots of the key's shared window (redis-script.ts), and the next requests
 * are answered from them.
 *
 * Invariants:
 * - A slot is used only before `expiresAt`, measured from when the call that leased it was
 *   *sent*; Redis scored the leased entries at its own time of running the call plus the same
 *   lifetime, which is later. So each real request has an entry scored at or after its own
 *   time: across instances a key never gets more than `limit` in any sliding window.
 * - A lease is only asked for while another call for the key is in flight, when the key's
 *   previous request came less than `BUSY_GAP_MS` before (a key busy enough that a lifetime
 *   holds several of its requests, even one request at a time), right after a lease of the key
 *   was used up, or (a renewal, counting no request) once three quarters of the live lease are
 *   used. A request that finds no live lease while a lease is on its way waits for that call
 *   (sent before it, so answered before a call of its own would be) and is served from the
 *   lease if it has a slot left; otherwise, or when the key's last lease was refused, it makes
 *   its own call, as without leases.
 * - Unused slots are handed back with the key's next call, or by a timer once the key has gone
 *   quiet (redis.ts).
 */

import type { VersionRead } from './limiter.ts';

/** How long a lease's slots may be used after the call that leased them was sent. */
export const LEASE_MS = 50;
/** The first lease of a key asks for this many slots; later ones follow the key's rate. */
export const FIRST_LEASE_SLOTS = 16;
const MIN_LEASE_SLOTS = 4;
/**
 * A key whose requests on this instance come closer together than this is busy: one lifetime
 * would hold at least 8 of them. Under SPEC's own limits (a request every 0.5 s on average at
 * 120 a minute) no key is; a key of an operator who raised its limits can be, with one request
 * in flight at a time, and without leases each such request waits for its own Redis call.
 */
export const BUSY_GAP_MS = LEASE_MS / 8;
/** How long after a lease that served two or more requests ended the key still counts as busy. */
const RECENT_MS = 4 * LEASE_MS;
const MAX_LEASE_SLOTS = 1024;

export type Lease = {
  readonly limit: number;
  readonly windowMs: number;
  /** The version read by the call that leased (also what a renewal reads), and the token it read. */
  readonly versionRead: VersionRead | undefined;
  readonly version: string | undefined;
  /** The leased entries' score and the leasing call's nonce: their members in Redis. */
  readonly score: string;
  readonly nonce: string;
  readonly granted: number;
  used: number;
  readonly sentAt: number;
  readonly expiresAt: number;
  /** When the last slot was used (the lease is then exhausted before it expires). */
  exhaustedAt: number | undefined;
  /** Set once the unused slots have been handed back (or there were none). */
  returned: boolean;
  timer: NodeJS.Timeout | undefined;
};

export type KeyState = {
  lease: Lease | undefined;
  /** Calls for this key sent and not answered yet. */
  inflight: number;
  /**
   * The one of them that asks for a lease (at most one at a time), settled once its lease, if
   * granted, is installed: requests arriving meanwhile wait for it rather than calling.
   */
  leasing: Promise<void> | undefined;
  /** Whether the last lease asked for was refused (near the limit): then nobody waits for one. */
  leaseRefused: boolean;
  /**
   * Requests counted in the shared window as this instance last knew it, leaving out the unused
   * slots of its live lease: what `remaining` is computed from.
   */
  counted: number;
  touchedAt: number;
  /** Time between the key's last two requests on this instance (Infinity after the first). */
  gapMs: number;
};

/** Whether `lease` may serve a request for (limit, windowMs, versionKey) at `now`. */
export function leaseServes(lease: Lease | undefined, limit: number, windowMs: number, versionKey: string | undefined, now: number): lease is Lease {
  return (
    lease !== undefined &&
    !lease.returned &&
    lease.used < lease.granted &&
    now < lease.expiresAt &&
    lease.limit === limit &&
    lease.windowMs === windowMs &&
    lease.versionRead?.key === versionKey
  );
}

/** Unused slots of a lease that has not been handed back. */
export const unusedSlots = (lease: Lease | undefined): number =>
  lease === undefined || lease.returned ? 0 : lease.granted - lease.used;

/**
 * How many slots the next call for the key should ask for; 0 for none (the module comment says
 * when). Sized to cover one lifetime at the rate the last lease was used at, with a margin, and
 * at most twice the last lease: a burst used up in a millisecond says little about the next 50.
 *
 * @example
 *   slotsToAsk({ lease: undefined, inflight: 1, leasing: undefined, leaseRefused: false, counted: 3, touchedAt: 0, gapMs: Infinity }, 0); // 16
 *   slotsToAsk({ lease: undefined, inflight: 0, leasing: undefined, leaseRefused: false, counted: 3, touchedAt: 0, gapMs: 2 }, 0); // 16
 */
export function slotsToAsk(state: KeyState, now: number): number {
  if (state.leasing !== undefined) return 0;
  const last = state.lease;
  const busy = state.inflight > 0 || state.gapMs < BUSY_GAP_MS;
  if (last === undefined) return busy ? FIRST_LEASE_SLOTS : 0;
  const live = !last.returned && now < last.expiresAt;
  // A key whose requests come in bursts further apart than a lifetime: the last lease served
  // part of a burst that ended not long ago, so the first request of the next one asks again.
  const usedRecently = last.used >= 2 && now - (last.exhaustedAt ?? last.expiresAt) < RECENT_MS;
  if (!busy && !live && !usedRecently) return 0;
  const usedFor = Math.max(1, Math.min(LEASE_MS, (last.exhaustedAt ?? now) - last.sentAt));
  const perLifetime = (last.used * LEASE_MS) / usedFor;
  return Math.min(MAX_LEASE_SLOTS, 2 * Math.max(last.granted, MIN_LEASE_SLOTS), Math.max(MIN_LEASE_SLOTS, Math.ceil(perLifetime * 1.5)));
}

/**
 * Whether a lease is used up fast enough that its successor should be asked for now, in the
 * background, so the key's requests never run out of slots while the next lease is on its way.
 *
 * @example
 *   renewalDue(state, { granted: 16, used: 12, sentAt: 0, ... }, 20); // true
 */
export function renewalDue(state: KeyState, lease: Lease, now: number): boolean {
  // Not within a burst (a quarter of a lifetime): one that used most of a lease at once says
  // nothing of the requests to come, and its successor would mostly go back unused.
  return state.leasing === undefined && !lease.returned && lease.used * 4 >= lease.granted * 3 && now - lease.sentAt >= LEASE_MS / 4;
}
