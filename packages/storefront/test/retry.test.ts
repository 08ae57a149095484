import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_RETRIES, cartStateKey, compileRules, createRefusals, planCart, retryDecision, toEvaluationContext } from '../src/index.ts';
import { cart, item, subtotalPayload, variantGid } from './support/carts.ts';

describe('retryDecision (CONTRACT: 429/409 retried with backoff at most three times; 422 never)', () => {
  it('retries 429 and 409 with a doubling delay, then gives up after three retries', () => {
    const noJitter = () => 0;
    expect([0, 1, 2, 3].map((attempt) => retryDecision(429, attempt, null, noJitter))).toEqual([
      { kind: 'retry', delayMs: 400 },
      { kind: 'retry', delayMs: 800 },
      { kind: 'retry', delayMs: 1600 },
      { kind: 'failed' },
    ]);
    expect(retryDecision(409, 0, null, noJitter)).toEqual({ kind: 'retry', delayMs: 400 });
  });

  it('follows Retry-After seconds, capped at 8 s', () => {
    expect(retryDecision(429, 0, '2')).toEqual({ kind: 'retry', delayMs: 2000 });
    expect(retryDecision(429, 0, '3600')).toEqual({ kind: 'retry', delayMs: 8000 });
    expect(retryDecision(429, 0, 'soon', () => 0)).toEqual({ kind: 'retry', delayMs: 400 });
  });

  it('treats 422 as a refusal, 2xx as done and anything else as a failure, never a retry', () => {
    expect(retryDecision(422, 0, null)).toEqual({ kind: 'refused' });
    expect(retryDecision(200, 0, null)).toEqual({ kind: 'ok' });
    for (const status of [400, 404, 500, 503]) expect(retryDecision(status, 0, null)).toEqual({ kind: 'failed' });
  });

  it('never allows more than MAX_RETRIES retries, whatever the answers', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(200, 409, 422, 429, 500), { minLength: 1, maxLength: 10 }), fc.option(fc.constantFrom('0', '1', 'x'), { nil: null }), (statuses, retryAfter) => {
        let calls = 0;
        for (let attempt = 0; ; attempt++) {
          calls++;
          const decision = retryDecision(statuses[Math.min(attempt, statuses.length - 1)] ?? 429, attempt, retryAfter);
          if (decision.kind !== 'retry') break;
          expect(decision.delayMs).toBeLessThanOrEqual(8000);
        }
        expect(calls).toBeLessThanOrEqual(MAX_RETRIES + 1);
      }),
    );
  });
});

describe('refusals (a sold-out add is not retried for the same cart state)', () => {
  it('makes the planner skip a refused gift in that cart state, fall back when allowed, and retry after a cart change', () => {
    const payload = compileRules(
      subtotalPayload({ giftConfig: { type: 'fixed', fallbackOnOOS: true, gifts: [{ variantId: variantGid(9001), quantity: 1 }, { variantId: variantGid(9002), quantity: 1 }] } }),
    );
    const refusals = createRefusals();
    const before = cart([item(1, { price: 6000 })]);
    const key = cartStateKey(before);
    refusals.refuse(key, variantGid(9001));
    const plan = (c: typeof before) =>
      planCart(payload, toEvaluationContext(c, { customerTags: [], loggedIn: false }), { availability: (v) => !refusals.isRefused(cartStateKey(c), v) }).operations;
    expect(plan(before)).toMatchObject([{ type: 'add', variantId: variantGid(9002) }]);
    refusals.refuse(key, variantGid(9002));
    expect(plan(before)).toEqual([]);
    const changed = cart([item(1, { price: 6000, quantity: 2 })]);
    expect(plan(changed)).toMatchObject([{ type: 'add', variantId: variantGid(9001) }]);
  });

  it('forgets the oldest cart states beyond its bound', () => {
    const refusals = createRefusals(2);
    refusals.refuse('a', 'v');
    refusals.refuse('b', 'v');
    refusals.refuse('c', 'v');
    expect([refusals.isRefused('a', 'v'), refusals.isRefused('b', 'v'), refusals.isRefused('c', 'v')]).toEqual([false, true, true]);
  });
});
