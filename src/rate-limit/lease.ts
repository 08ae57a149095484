/**
 * Local leases of sliding-window slots (docs/operations.md "GET /rules throughput"): the part
 * of the Redis limiter that decides, without Redis, whether a request may be served from slots
 * this instance has already reserved in the shared window.
 *
 * Why: on PostgreSQL + Redis every API request waited for one Redis round trip, which under
 * load is as long as the whole request of a bare server. When a key's requests arrive faster
 * than one per round trip, the call that is made anyway also reserves a few more slots of the
 * key's shared window (redis-script.ts), and the next requests are answered from them.
 *
 * Invariants:
 * - A slot is used only before `expiresAt`, measured from when the call that leased it was
 *   *sent*; Redis scored the leased entries at its own time of running the call plus the same
 *   lifetime, which is later. So each real request has an entry scored at or after its own
 *   time: across instances a key never gets more than `limit` in any sliding window.
 * - A lease is only asked for while another call for the key is in flight, right after a lease
 *   of the key was used up, or (a renewal, counting no request) once three quarters of the live
 *   lease are used. A request is never made to wait for one: it is served from a live lease or
 *   makes its own call, as without leases.
 * - Unused slots are handed back when the lease ends (redis.ts).
 */

import type { VersionRead } from './limiter.ts';

/** How long a lease's slots may be used after the call that leased them was sent. */
export const LEASE_MS = 50;
/** The first lease of a key asks for this many slots; later ones follow the key's rate. */
export const FIRST_LEASE_SLOTS = 16;
const MIN_LEASE_SLOTS = 4;
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
  /** Whether one of them asked for a lease (at most one at a time). */
  leasing: boolean;
  /**
   * Requests counted in the shared window as this instance last knew it, leaving out the unused
   * slots of its live lease: what `remaining` is computed from.
   */
  counted: number;
  touchedAt: number;
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
 * when). Sized to cover one lifetime at the rate the last lease was used at, with a margin.
 *
 * @example
 *   slotsToAsk({ lease: undefined, inflight: 1, leasing: false, counted: 3, touchedAt: 0 }, 0); // 16
 */
export function slotsToAsk(state: KeyState, now: number): number {
  if (state.leasing) return 0;
  const last = state.lease;
  if (last === undefined) return state.inflight > 0 ? FIRST_LEASE_SLOTS : 0;
  const live = !last.returned && now < last.expiresAt;
  const exhaustedRecently = last.exhaustedAt !== undefined && now - last.exhaustedAt < LEASE_MS;
  if (state.inflight === 0 && !exhaustedRecently && !live) return 0;
  const usedFor = Math.max(1, Math.min(LEASE_MS, (last.exhaustedAt ?? now) - last.sentAt));
  const perLifetime = (last.used * LEASE_MS) / usedFor;
  return Math.min(MAX_LEASE_SLOTS, Math.max(MIN_LEASE_SLOTS, Math.ceil(perLifetime * 1.5)));
}

/**
 * Whether a lease is used up fast enough that its successor should be asked for now, in the
 * background, so the key's requests never run out of slots while the next lease is on its way.
 *
 * @example
 *   renewalDue({ granted: 16, used: 12, ... }); // true
 */
export function renewalDue(state: KeyState, lease: Lease): boolean {
  return !state.leasing && !lease.returned && lease.used * 4 >= lease.granted * 3;
}
