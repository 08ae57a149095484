/**
 * Shared steps of the experiment route tests (experiments.test.ts, experiment-rule-edits.test.ts):
 * a shop with one live campaign of three rules, and start, stop and conclude through the admin API.
 */
import { campaign, rule } from '../campaigns/fixtures.ts';
import { importCampaigns, readCampaign } from '../rules/helpers.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export type Experiment = {
  id: string;
  status: string;
  primaryMetric: string;
  startedAt: string;
  stoppedAt: string | null;
  concludedAt: string | null;
  winnerVariantId: string | null;
  variants: Array<{ id: string; name: string; ruleId: string; weight: number }>;
};

export const variants = (ruleIds: string[]) => ruleIds.map((ruleId, i) => ({ name: `V${i}`, ruleId, weight: 10 * (i + 1) }));

/** The steps over the app `app()` returns (it is opened in a beforeAll). */
export function experimentSteps(app: () => TestApp) {
  /** A shop with one live campaign of three rules. */
  async function setup(plan: 'pro' | 'scale' = 'scale') {
    const shop = await app().createShop(plan);
    const [campaignId] = await importCampaigns(app(), shop, [
      campaign('AB', { enabled: true, isDraft: false, rules: [rule('a'), rule('b'), rule('c')] }),
    ]);
    const ruleIds = (await readCampaign(app(), shop, campaignId as string)).rules.map((r) => r.id);
    return { shop, campaignId: campaignId as string, ruleIds };
  }

  const base = (shop: TestShop | string, campaignId: string) =>
    `/admin/v1/shops/${typeof shop === 'string' ? shop : shop.id}/campaigns/${campaignId}/experiments`;
  const start = (shop: TestShop | string, campaignId: string, payload: unknown) =>
    app().admin({ method: 'POST', url: base(shop, campaignId), payload: payload as Record<string, unknown> });
  const stop = (shop: TestShop, campaignId: string, id: string) => app().admin({ method: 'POST', url: `${base(shop, campaignId)}/${id}/stop` });
  const conclude = (shop: TestShop, campaignId: string, id: string, winnerVariantId: unknown) =>
    app().admin({ method: 'POST', url: `${base(shop, campaignId)}/${id}/conclude`, payload: { winnerVariantId } as Record<string, unknown> });
  return { setup, base, start, stop, conclude };
}
