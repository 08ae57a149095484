/**
 * When a key asks for a lease of limiter slots and how many (src/rate-limit/lease.ts), as pure
 * functions of the key's state: busy keys ask, quiet ones never do, bursts do not inflate the
 * next lease, and a lease used up inside a burst sends no renewal ahead.
 */
import { describe, expect, it } from 'vitest';
import { BUSY_GAP_MS, FIRST_LEASE_SLOTS, LEASE_MS, renewalDue, slotsToAsk } from '../../src/rate-limit/lease.ts';
import type { KeyState, Lease } from '../../src/rate-limit/lease.ts';

const state = (over: Partial<KeyState> = {}): KeyState => ({
  lease: undefined,
  inflight: 0,
  leasing: undefined,
  leaseRefused: false,
  counted: 0,
  touchedAt: 0,
  gapMs: Number.POSITIVE_INFINITY,
  ...over,
});

const lease = (over: Partial<Lease> = {}): Lease => ({
  limit: 1600,
  windowMs: 60_000,
  versionRead: undefined,
  version: undefined,
  score: '1',
  nonce: 'n',
  granted: 16,
  used: 0,
  sentAt: 0,
  expiresAt: LEASE_MS,
  exhaustedAt: undefined,
  returned: false,
  timer: undefined,
  ...over,
});

describe('slotsToAsk', () => {
  it('asks nothing for a key whose requests come one at a time and far apart', () => {
    expect(slotsToAsk(state({ gapMs: BUSY_GAP_MS * 2 }), 1000)).toBe(0);
    expect(slotsToAsk(state({ gapMs: BUSY_GAP_MS * 2, lease: lease({ used: 1, returned: true }) }), 1000)).toBe(0);
  });

  it('asks for a first lease while another call is in flight or when requests come closer than BUSY_GAP_MS', () => {
    expect(slotsToAsk(state({ inflight: 1 }), 0)).toBe(FIRST_LEASE_SLOTS);
    expect(slotsToAsk(state({ gapMs: BUSY_GAP_MS / 2 }), 0)).toBe(FIRST_LEASE_SLOTS);
  });

  it('asks nothing while a lease call of the key is already on its way', () => {
    expect(slotsToAsk(state({ inflight: 3, leasing: Promise.resolve() }), 0)).toBe(0);
  });

  it('sizes a lease used up in a burst at twice the last one, not at the burst rate', () => {
    // 16 slots used within 1 ms would be 800 a lifetime at that rate.
    const burst = lease({ used: 16, exhaustedAt: 1, returned: true });
    expect(slotsToAsk(state({ lease: burst, gapMs: 0 }), 2)).toBe(32);
  });

  it('sizes a lease used at a steady rate to one lifetime at that rate, with a margin', () => {
    // 10 used over the whole 50 ms lifetime: 15 for the next one.
    const steady = lease({ used: 10, returned: true });
    expect(slotsToAsk(state({ lease: steady, gapMs: BUSY_GAP_MS / 2 }), LEASE_MS + 1)).toBe(15);
  });

  it('lets the first request of a burst ask again when the key\'s last lease served a burst not long ago', () => {
    const last = lease({ used: 8, returned: true });
    expect(slotsToAsk(state({ lease: last, gapMs: 3 * LEASE_MS }), 2 * LEASE_MS)).toBeGreaterThan(0);
    expect(slotsToAsk(state({ lease: last, gapMs: 10 * LEASE_MS }), 10 * LEASE_MS)).toBe(0);
  });
});

describe('renewalDue', () => {
  it('renews a lease three quarters used over a quarter of its lifetime or more', () => {
    expect(renewalDue(state(), lease({ used: 12 }), LEASE_MS / 2)).toBe(true);
    expect(renewalDue(state(), lease({ used: 11 }), LEASE_MS / 2)).toBe(false);
  });

  it('does not renew a lease used up within a burst, nor while a lease call is on its way', () => {
    expect(renewalDue(state(), lease({ used: 12 }), 1)).toBe(false);
    expect(renewalDue(state({ leasing: Promise.resolve() }), lease({ used: 12 }), LEASE_MS / 2)).toBe(false);
  });
});
