/**
 * Issue 4 "Done when": `/evaluate` and the library agree on every table case. Each case of
 * the engine's leaf table (the very fixture its own tests run) becomes a rule of a live
 * campaign of a Scale shop; /evaluate then answers the case's context and must give the
 * library's `matched`, reasons and trace verdict. A case whose tree the API refuses at save
 * time (NaN, Infinity, a malformed id or node) can never reach /evaluate: for those the
 * import must answer 400 while the library fails closed.
 */
import { conditionNodeSchema, evaluateCondition } from '@gcrs/engine';
import type { ConditionNode, EvaluationContext } from '@gcrs/engine';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAF_CASE_GROUPS } from '../../packages/engine/test/support/leaf-cases.ts';
import type { LeafCase } from '../../packages/engine/test/support/leaf-cases.ts';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { evaluationOf, liveCampaign, resultOf, rule } from './helpers.ts';

const OPTIONS = { baseCurrency: 'USD' } as const;

/** The tree as the API receives it: JSON, then the save-time schema. */
function storable(tree: ConditionNode): boolean {
  const sent: unknown = JSON.parse(JSON.stringify(tree));
  return isDeepStrictEqual(sent, tree) && conditionNodeSchema.safeParse(sent).success;
}

type Imported = { group: string; name: string; tree: ConditionNode; ctx: EvaluationContext; ruleId: string };

let t: TestApp;
let shop: TestShop;
const imported: Imported[] = [];
const refused: Array<{ group: string; name: string; tree: ConditionNode; ctx: EvaluationContext }> = [];

beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  // One live campaign per group of the table, one rule per case: 8 imports on the admin mount.
  for (const [group, cases] of LEAF_CASE_GROUPS) {
    const kept: LeafCase[] = [];
    for (const item of cases) {
      const [name, tree, ctx] = item;
      if (storable(tree)) kept.push(item);
      else refused.push({ group, name, tree, ctx });
    }
    if (kept.length === 0) continue;
    const [campaignId] = await importCampaigns(t, shop, [liveCampaign(group, kept.map(([name, tree]) => rule(name, tree)))]);
    const rules = (await readCampaign(t, shop, campaignId as string)).rules;
    kept.forEach(([name, tree, ctx], index) => {
      imported.push({ group, name, tree, ctx, ruleId: rules[index]?.id as string });
    });
  }
});
afterAll(() => t.close());

describe('/evaluate and the library agree on every table case', () => {
  it('imports nearly every case: only trees the API refuses at save time are left out', () => {
    const total = LEAF_CASE_GROUPS.reduce((sum, [, cases]) => sum + cases.length, 0);
    expect(imported.length + refused.length).toBe(total);
    expect(imported.length).toBeGreaterThan(total * 0.85);
  });

  it('gives the library’s matched, reasons and trace verdict for every importable case', async () => {
    const disagreements: string[] = [];
    for (const { group, name, tree, ctx, ruleId } of imported) {
      const library = evaluateCondition(tree, ctx, OPTIONS);
      const result = resultOf(await evaluationOf(t, shop, ctx, 'admin'), ruleId);
      const agrees =
        result.matched === library.matched &&
        isDeepStrictEqual(result.reasons, library.reasons) &&
        result.trace?.matched === library.matched;
      if (!agrees) disagreements.push(`${group} / ${name}: server ${JSON.stringify(result)} library ${JSON.stringify(library)}`);
    }
    expect(disagreements).toEqual([]);
  });

  it('answers the same through an API key as through the admin mount', async () => {
    // A sample per group, well inside the default rate row of 120 per minute.
    const sample = LEAF_CASE_GROUPS.map(([group]) => imported.find((item) => item.group === group)).filter((item) => item !== undefined);
    for (const { ctx } of sample) {
      expect(await evaluationOf(t, shop, ctx, 'api')).toEqual(await evaluationOf(t, shop, ctx, 'admin'));
    }
  });

  it('refuses at save time every tree it could not evaluate as written, which the library fails closed', async () => {
    expect(refused.map((item) => item.name).sort()).toEqual(
      [
        'NaN value fails closed',
        'item count NaN fails closed',
        'infinite market override fails closed',
        'infinite minimum fails closed',
        'invalid product id fails closed',
        'unknown selling plan value fails closed',
        'unknown leaf type fails closed',
        'NOT without child fails closed',
      ].sort(),
    );
    for (const { name, tree, ctx } of refused) {
      expect(evaluateCondition(tree, ctx, OPTIONS).matched, name).toBe(false);
      const res = await t.admin({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/campaigns/import`,
        payload: { campaigns: [liveCampaign(name, [rule(name, tree)])] },
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
    }
  });
});
