/**
 * Campaigns and their rules in storage. Every function takes the shop id first; a campaign
 * of another shop is simply not found. Writes take a transaction handle so the caller can
 * put caps, version bump and outbox rows in the same transaction.
 */
import type { Budget, ConditionNode, GiftConfig, RuleOptions } from '@gcrs/engine';
import { and, asc, count, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { campaigns, experiments, rules, storefrontEvents } from '../db/schema.ts';
import { stringifyJson } from '../http/json.ts';
import { newId } from '../ids.ts';
import { bytewise } from '../db/collation.ts';

export type CampaignRow = typeof campaigns.$inferSelect;
export type RuleRecord = {
  id: string;
  campaignId: string;
  name: string;
  enabled: boolean;
  conditionTree: ConditionNode;
  giftConfig: GiftConfig;
  options: RuleOptions;
  createdAt: Date;
  updatedAt: Date;
};
export type CampaignWithRules = CampaignRow & { rules: RuleRecord[] };
export type ExperimentRow = typeof experiments.$inferSelect;

export type NewRule = { name: string; enabled: boolean; conditionTree: ConditionNode; giftConfig: GiftConfig; options: RuleOptions };
export type NewCampaign = {
  name: string;
  enabled: boolean;
  isDraft: boolean;
  startAt: Date | null;
  endAt: Date | null;
  budget: Budget | null;
  rules: NewRule[];
};

/** A rules row as the record handlers use (condition tree parsed from its JSON text). */
export const toRuleRecord = (row: typeof rules.$inferSelect): RuleRecord => ({
  id: row.id,
  campaignId: row.campaignId,
  name: row.name,
  enabled: row.enabled,
  conditionTree: JSON.parse(row.conditionTree) as ConditionNode,
  giftConfig: row.giftConfig,
  options: row.options,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export type CampaignCounts = { campaigns: number; rules: number; activeCampaigns: number };

/** What the plan caps count, optionally leaving one campaign out (SPEC "PUT": caps exclude it). */
export async function countForCaps(db: Queryable, shopId: string, excludeCampaignId?: string): Promise<CampaignCounts> {
  const exclude = excludeCampaignId ?? '';
  const [row] = await db
    .select({
      campaigns: count(),
      activeCampaigns: sql<number>`count(*) filter (where ${campaigns.enabled} and not ${campaigns.isDraft})`.mapWith(Number),
      rules: sql<number>`coalesce((select count(*) from ${rules} where ${rules.shopId} = ${shopId} and ${rules.campaignId} <> ${exclude}), 0)`.mapWith(Number),
    })
    .from(campaigns)
    .where(and(eq(campaigns.shopId, shopId), sql`${campaigns.id} <> ${exclude}`));
  return row ?? { campaigns: 0, rules: 0, activeCampaigns: 0 };
}

export async function listCampaigns(
  db: Queryable,
  shopId: string,
  query: { page: number; perPage: number; enabled?: boolean | undefined },
): Promise<{ total: number; items: Array<Omit<CampaignRow, 'budget'> & { rulesCount: number }> }> {
  const where = and(eq(campaigns.shopId, shopId), query.enabled === undefined ? undefined : eq(campaigns.enabled, query.enabled));
  const [totalRow] = await db.select({ total: count() }).from(campaigns).where(where);
  const items = await db
    .select({
      shopId: campaigns.shopId,
      id: campaigns.id,
      name: campaigns.name,
      enabled: campaigns.enabled,
      isDraft: campaigns.isDraft,
      startAt: campaigns.startAt,
      endAt: campaigns.endAt,
      createdAt: campaigns.createdAt,
      updatedAt: campaigns.updatedAt,
      // Qualified by hand: inside the subquery Drizzle's bare column names would bind to rules.
      rulesCount: sql<number>`(select count(*) from "rules" r where r.shop_id = "campaigns"."shop_id" and r.campaign_id = "campaigns"."id")`.mapWith(Number),
    })
    .from(campaigns)
    .where(where)
    // Oldest first: a campaign created while a client pages lands on the last page, never shifting earlier ones.
    .orderBy(asc(campaigns.createdAt), asc(bytewise(campaigns.id)))
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage);
  return { total: totalRow?.total ?? 0, items };
}

/** The campaign row alone, without its rules. */
export async function getCampaignRow(db: Queryable, shopId: string, campaignId: string): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.shopId, shopId), eq(campaigns.id, campaignId)));
  return row;
}

export async function getCampaign(db: Queryable, shopId: string, campaignId: string): Promise<CampaignWithRules | undefined> {
  const campaign = await getCampaignRow(db, shopId, campaignId);
  if (!campaign) return undefined;
  const ruleRows = await db
    .select()
    .from(rules)
    .where(and(eq(rules.shopId, shopId), eq(rules.campaignId, campaignId)))
    .orderBy(asc(rules.position), asc(bytewise(rules.id)));
  return { ...campaign, rules: ruleRows.map(toRuleRecord) };
}

/** The campaign's running experiment, if any (SPEC: `experiment` is null unless one is active). */
export async function getRunningExperiment(db: Queryable, shopId: string, campaignId: string): Promise<ExperimentRow | undefined> {
  const [row] = await db
    .select()
    .from(experiments)
    .where(and(eq(experiments.shopId, shopId), eq(experiments.campaignId, campaignId), eq(experiments.status, 'running')));
  return row;
}

const ruleValues = (shopId: string, campaignId: string, rule: NewRule, position: number, now: Date) => ({
  shopId,
  campaignId,
  position,
  name: rule.name,
  enabled: rule.enabled,
  conditionTree: stringifyJson(rule.conditionTree),
  giftConfig: rule.giftConfig,
  options: rule.options,
  updatedAt: now,
});

/** Inserts campaigns with their rules; returns the new campaign ids in input order. */
export async function insertCampaigns(tx: Queryable, shopId: string, input: readonly NewCampaign[]): Promise<string[]> {
  const now = new Date();
  const ids = input.map(() => newId('cmp'));
  await tx.insert(campaigns).values(
    input.map((c, i) => ({
      shopId,
      id: ids[i] as string,
      name: c.name,
      enabled: c.enabled,
      isDraft: c.isDraft,
      startAt: c.startAt,
      endAt: c.endAt,
      budget: c.budget,
      createdAt: now,
      updatedAt: now,
    })),
  );
  const ruleRows = input.flatMap((c, i) =>
    c.rules.map((rule, position) => ({ id: newId('rul'), createdAt: now, ...ruleValues(shopId, ids[i] as string, rule, position, now) })),
  );
  // Batches keep each statement well under PostgreSQL's 65,535 bind parameters.
  for (let start = 0; start < ruleRows.length; start += 500) {
    await tx.insert(rules).values(ruleRows.slice(start, start + 500));
  }
  return ids;
}

/**
 * Replaces a campaign (SPEC "PUT" rule 1): rules with an id are updated in place, rules
 * without one are created, existing rules left out are deleted.
 */
export async function replaceCampaign(
  tx: Queryable,
  shopId: string,
  campaignId: string,
  input: Omit<NewCampaign, 'rules'> & { rules: Array<NewRule & { id?: string | undefined }> },
): Promise<void> {
  const now = new Date();
  await tx
    .update(campaigns)
    .set({
      name: input.name,
      enabled: input.enabled,
      isDraft: input.isDraft,
      startAt: input.startAt,
      endAt: input.endAt,
      budget: input.budget,
      updatedAt: now,
    })
    .where(and(eq(campaigns.shopId, shopId), eq(campaigns.id, campaignId)));
  const kept = input.rules.flatMap((rule) => (rule.id === undefined ? [] : [rule.id]));
  await tx
    .delete(rules)
    .where(
      and(
        eq(rules.shopId, shopId),
        eq(rules.campaignId, campaignId),
        kept.length > 0 ? notInArray(rules.id, kept) : undefined,
      ),
    );
  for (const [position, rule] of input.rules.entries()) {
    const values = ruleValues(shopId, campaignId, rule, position, now);
    if (rule.id === undefined) {
      await tx.insert(rules).values({ id: newId('rul'), createdAt: now, ...values });
    } else {
      await tx
        .update(rules)
        .set(values)
        .where(and(eq(rules.shopId, shopId), eq(rules.id, rule.id)));
    }
  }
}

/** Deletes a campaign, its rules and its storefront events (SPEC "States": "campaign and its events removed"). */
export async function deleteCampaign(tx: Queryable, shopId: string, campaignId: string): Promise<void> {
  await tx.delete(storefrontEvents).where(and(eq(storefrontEvents.shopId, shopId), eq(storefrontEvents.campaignId, campaignId)));
  await tx.delete(campaigns).where(and(eq(campaigns.shopId, shopId), eq(campaigns.id, campaignId)));
}

/** The ids of the given rules that belong to the campaign. */
export async function ruleIdsOf(db: Queryable, shopId: string, campaignId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: rules.id })
    .from(rules)
    .where(and(eq(rules.shopId, shopId), eq(rules.campaignId, campaignId), inArray(rules.id, [...ids])));
  return new Set(rows.map((row) => row.id));
}
