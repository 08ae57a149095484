/**
 * What the admin simulator reads: one campaign whatever its state, or every campaign of the
 * shop, with their running experiments. Every query is keyed by the shop first, so a
 * campaign of another shop is simply not found.
 */
import type { EngineExperiment } from '@gcrs/engine';
import { and, asc, eq } from 'drizzle-orm';
import { getCampaign, getRunningExperiment, toRuleRecord } from '../campaigns/store.ts';
import type { Database } from '../db/database.ts';
import { campaigns, experiments, rules } from '../db/schema.ts';
import type { SimulatedCampaign } from './simulation-payload.ts';
import { bytewise } from '../db/collation.ts';

export type SimulationSource = { campaigns: SimulatedCampaign[]; experiments: EngineExperiment[] };

type StoredVariants = Array<{ id: string; ruleId: string; weight: number }>;

/** The engine's shape (engineExperimentSchema): variant names are for people, not the engine. */
const toEngineExperiment = (row: { id: string; campaignId: string; variants: StoredVariants }): EngineExperiment => ({
  id: row.id,
  campaignId: row.campaignId,
  variants: row.variants.map((variant) => ({ id: variant.id, ruleId: variant.ruleId, weight: variant.weight })),
});

/**
 * One campaign with all its rules (disabled ones too) and its running experiment, or
 * undefined when the shop has no such campaign.
 *
 * @example
 *   const source = await loadCampaignForSimulation(ctx.db, shop.id, 'cmp_1');
 */
export async function loadCampaignForSimulation(db: Database, shopId: string, campaignId: string): Promise<SimulationSource | undefined> {
  return db.transaction(
    async (tx) => {
      const campaign = await getCampaign(tx, shopId, campaignId);
      if (!campaign) return undefined;
      const running = await getRunningExperiment(tx, shopId, campaignId);
      return {
        campaigns: [{ id: campaign.id, startAt: campaign.startAt, endAt: campaign.endAt, rules: campaign.rules }],
        experiments: running ? [toEngineExperiment(running)] : [],
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * Every campaign of the shop, live or not (drafts and disabled ones included), oldest first,
 * each with its enabled rules by position, and every running experiment; read in one snapshot.
 *
 * @example
 *   const source = await loadShopForSimulation(ctx.db, shop.id); // source.campaigns.length
 */
export async function loadShopForSimulation(db: Database, shopId: string): Promise<SimulationSource> {
  return db.transaction(
    async (tx) => {
      const campaignRows = await tx
        .select({ id: campaigns.id, startAt: campaigns.startAt, endAt: campaigns.endAt })
        .from(campaigns)
        .where(eq(campaigns.shopId, shopId))
        .orderBy(asc(campaigns.createdAt), asc(bytewise(campaigns.id)));
      const ruleRows = await tx
        .select()
        .from(rules)
        .where(and(eq(rules.shopId, shopId), eq(rules.enabled, true)))
        .orderBy(asc(bytewise(rules.campaignId)), asc(rules.position), asc(bytewise(rules.id)));
      const running = await tx
        .select({ id: experiments.id, campaignId: experiments.campaignId, variants: experiments.variants })
        .from(experiments)
        .where(and(eq(experiments.shopId, shopId), eq(experiments.status, 'running')))
        .orderBy(asc(experiments.startedAt), asc(bytewise(experiments.id)));

      const byCampaign = new Map<string, SimulatedCampaign>(campaignRows.map((row) => [row.id, { ...row, rules: [] }]));
      for (const row of ruleRows) {
        const { id, name, enabled, conditionTree, giftConfig, options } = toRuleRecord(row);
        byCampaign.get(row.campaignId)?.rules.push({ id, name, enabled, conditionTree, giftConfig, options });
      }
      return { campaigns: [...byCampaign.values()], experiments: running.map(toEngineExperiment) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
