/** Shared steps of the evaluation tests, all through the HTTP API. */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp, TestShop } from '../support/test-app.ts';

export type Trace = { type: string; matched: boolean; reasons: string[]; children?: Trace[] };
export type Result = { ruleId: string; campaignId: string; matched: boolean; reasons: string[]; trace: Trace | null };
export type Operation =
  | { type: 'add'; variantId: string; quantity: number; attributes: Record<string, string> }
  | { type: 'remove'; lineId: string; ruleId: string }
  | { type: 'update'; lineId: string; ruleId: string; quantity: number }
  | { type: 'choose'; ruleId: string; campaignId: string; options: Array<{ variantId: string; quantity: number }>; attributes: Record<string, string> };
export type Evaluation = { results: Result[]; operations: Operation[] };

export const variant = (n: number | string) => `gid://shopify/ProductVariant/${n}`;
export const product = (n: number | string) => `gid://shopify/Product/${n}`;

/** A cart line: product 1 / variant 11 by default. */
export const line = (extra: Record<string, unknown> = {}) => ({ productId: product(1), variantId: variant(11), quantity: 1, price: 1000, ...extra });

/** A USD context whose cart holds `lines`. */
export const cartOf = (lines: unknown[], extra: Record<string, unknown> = {}) => ({ cart: { currency: 'USD', lines }, ...extra });

const OPTIONS = { discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' };

/** A rule in the import shape; `gifts` are variant numbers. */
export const rule = (name: string, conditionTree: unknown, extra: { actionType?: string; gifts?: number[]; enabled?: boolean } = {}) => ({
  name,
  enabled: extra.enabled ?? true,
  conditionTree,
  giftConfig: { type: 'fixed', gifts: (extra.gifts ?? [900]).map((n) => ({ variantId: variant(n), quantity: 1 })), fallbackOnOOS: false },
  options: { ...OPTIONS, actionType: extra.actionType ?? 'auto_add' },
});

/** A live campaign (enabled, not draft) holding `rules`. */
export const liveCampaign = (name: string, rules: unknown[], extra: Record<string, unknown> = {}) => ({
  name,
  enabled: true,
  isDraft: false,
  startAt: null,
  endAt: null,
  rules,
  ...extra,
});

/** POST /evaluate with the shop's key, or through the admin mount. */
export function evaluate(t: TestApp, shop: TestShop, payload: unknown, via: 'api' | 'admin' = 'api'): Promise<LightMyRequestResponse> {
  const options = { method: 'POST' as const, payload: payload as Record<string, unknown> };
  return via === 'api'
    ? t.api(shop, { ...options, url: '/api/v1/evaluate' })
    : t.admin({ ...options, url: `/admin/v1/shops/${shop.id}/evaluate` });
}

/** The 200 body of an evaluation. */
export async function evaluationOf(t: TestApp, shop: TestShop, payload: unknown, via: 'api' | 'admin' = 'api'): Promise<Evaluation> {
  const res = await evaluate(t, shop, payload, via);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Evaluation;
}

/** POST /admin/v1/shops/:shopId/simulate. */
export function simulate(t: TestApp, shopId: string, payload: unknown): Promise<LightMyRequestResponse> {
  return t.admin({ method: 'POST', url: `/admin/v1/shops/${shopId}/simulate`, payload: payload as Record<string, unknown> });
}

/** The result of `ruleId`, failing the test when it is missing. */
export function resultOf(evaluation: Evaluation, ruleId: string): Result {
  const result = evaluation.results.find((r) => r.ruleId === ruleId);
  expect(result, `no result for ${ruleId}`).toBeDefined();
  return result as Result;
}
