/** SPEC "GET/POST/PUT/DELETE /campaigns…": list, bulk import, read, full replace, delete. */
import { stripDisallowedLeaves } from '@gcrs/engine';
import type { AppContext } from '../context.ts';
import type { Queryable, Tx } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute, Trigger } from '../http/shop-routes.ts';
import { effectiveCaps } from '../shops/plans.ts';
import type { Plan } from '../shops/plans.ts';
import { limitBackfillEvents, newlyLimitedRules } from '../redemptions/limit-sync.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import { assertWithinCaps, isLive } from './caps.ts';
import { presentCampaign, presentListItem } from './present.ts';
import { badRequestResponse, campaignNotFound, notFoundResponse } from './responses.ts';
import {
  campaignIdParamsSchema,
  importBodySchema,
  importResponseSchema,
  listQuerySchema,
  listResponseSchema,
  okResponseSchema,
  putCampaignSchema,
  singleResponseSchema,
} from './schemas.ts';
import {
  countForCaps,
  deleteCampaign,
  getCampaign,
  getRunningExperiment,
  insertCampaigns,
  listCampaigns,
  replaceCampaign,
  ruleIdsOf,
} from './store.ts';
import type { CampaignWithRules, NewRule } from './store.ts';
import { discountSyncEvents, liveConfigSyncEvents, liveTransitionEvents } from './transitions.ts';
import { campaignBudgetUsage } from '../budgets/usage.ts';


/** SPEC rule 4: plan-gated condition types are stripped silently, at any depth. */
const stripForPlan = <R extends NewRule>(rule: R, plan: Plan): R => ({
  ...rule,
  conditionTree: stripDisallowedLeaves(rule.conditionTree, plan).tree,
});

/**
 * A campaign as GET and PUT answer it: SPEC's shape, plus what the current budget windows used
 * for the merchant's view only (API clients keep SPEC's shape).
 */
async function presentFor(trigger: Trigger, db: Queryable, shop: { id: string; timezone: string }, campaign: CampaignWithRules, at: number) {
  const presented = presentCampaign(campaign, await getRunningExperiment(db, shop.id, campaign.id));
  const budgetUsage = trigger === 'admin' ? await campaignBudgetUsage(db, shop, campaign, at) : undefined;
  return budgetUsage ? { ...presented, budgetUsage } : presented;
}

export function campaignRoutes(ctx: AppContext): ShopRoute[] {
  const capsOf = (shop: { plan: Plan; limits: Parameters<typeof effectiveCaps>[2] }) =>
    effectiveCaps(ctx.config.planCaps, shop.plan, shop.limits);

  return [
    defineShopRoute({
      method: 'GET',
      path: '/campaigns',
      operationId: 'listCampaigns',
      summary: 'List campaigns',
      description: 'Oldest first. Increment `page` until the accumulated count reaches `meta.total`.',
      tag: 'Campaigns',
      rateLimit: 'default',
      query: listQuerySchema,
      responses: { 200: { description: 'A page of campaigns', schema: listResponseSchema }, 400: badRequestResponse },
      handler: async ({ shop, query }) => {
        const { total, items } = await listCampaigns(ctx.db, shop.id, query);
        return { campaigns: items.map(presentListItem), meta: { total, page: query.page, perPage: query.perPage } };
      },
    }),

    defineShopRoute({
      method: 'POST',
      path: '/campaigns/import',
      operationId: 'importCampaigns',
      summary: 'Bulk-create campaigns (1–50), all or nothing',
      description:
        'Each entry creates a new campaign. Plan-gated condition types are stripped silently; a batch that would ' +
        'exceed the campaign, rule or active-campaign cap is rejected whole with 403.',
      tag: 'Campaigns',
      rateLimit: 'import',
      body: importBodySchema,
      responses: {
        200: { description: 'Imported', schema: importResponseSchema },
        400: badRequestResponse,
        403: { description: 'Plan cap exceeded' },
      },
      handler: async ({ shop, body }) => {
        const campaignIds = await writeShop(ctx, shop.id, async (uow) => {
          const entries = body.campaigns.map((c) => ({ ...c, rules: c.rules.map((r) => stripForPlan(r, uow.shop.plan)) }));
          const adding = {
            campaigns: entries.length,
            rules: entries.reduce((sum, c) => sum + c.rules.length, 0),
            activeCampaigns: entries.filter(isLive).length,
          };
          assertWithinCaps(await countForCaps(uow.tx, uow.shop.id), adding, capsOf(uow.shop));
          const ids = await insertCampaigns(uow.tx, uow.shop.id, entries);
          uow.enqueue(...discountSyncEvents(ids.filter((_id, i) => entries[i] !== undefined && isLive(entries[i]))));
          uow.touchRules();
          return ids;
        });
        return { imported: campaignIds.length, campaignIds };
      },
    }),

    defineShopRoute({
      method: 'GET',
      path: '/campaigns/:id',
      operationId: 'getCampaign',
      summary: 'Read one campaign with its rules',
      tag: 'Campaigns',
      rateLimit: 'default',
      params: campaignIdParamsSchema,
      responses: { 200: { description: 'The campaign', schema: singleResponseSchema }, 404: notFoundResponse },
      handler: async ({ shop, params, trigger }) => {
        const campaign = await getCampaign(ctx.db, shop.id, params.id);
        if (!campaign) throw campaignNotFound();
        return { campaign: await presentFor(trigger, ctx.db, shop, campaign, ctx.now().getTime()) };
      },
    }),

    defineShopRoute({
      method: 'PUT',
      path: '/campaigns/:id',
      operationId: 'replaceCampaign',
      summary: 'Replace a campaign and its rules',
      description:
        'Rules with an `id` are updated in place, rules without one are created, existing rules left out are deleted. ' +
        'Caps count every other campaign. 409 when a rule of a running A/B experiment would be removed or replaced.',
      tag: 'Campaigns',
      rateLimit: 'default',
      params: campaignIdParamsSchema,
      body: putCampaignSchema,
      responses: {
        200: { description: 'The updated campaign', schema: singleResponseSchema },
        400: badRequestResponse,
        403: { description: 'Plan cap exceeded' },
        404: notFoundResponse,
        409: { description: 'A rule of a running experiment would be removed or replaced' },
      },
      handler: async ({ shop, params, body, trigger }) => {
        const campaign = await writeShop(ctx, shop.id, async (uow) => {
          const rules = body.rules.map((r) => stripForPlan(r, uow.shop.plan));
          const before = await getCampaign(uow.tx, uow.shop.id, params.id);
          if (!before) throw campaignNotFound();
          await assertRuleIdsBelong(uow.tx, uow.shop.id, params.id, rules);
          await assertExperimentRulesKept(uow.tx, uow.shop.id, params.id, rules);
          const adding = {
            campaigns: 0,
            rules: rules.length,
            activeCampaigns: isLive(body) && !isLive(before) ? 1 : 0,
          };
          const others = await countForCaps(uow.tx, uow.shop.id, params.id);
          assertWithinCaps(others, adding, capsOf(uow.shop));
          await replaceCampaign(uow.tx, uow.shop.id, params.id, { ...body, rules });
          uow.enqueue(...(await limitBackfillEvents(uow.tx, uow.shop.id, newlyLimitedRules(before.rules, rules))));
          uow.enqueue(...liveTransitionEvents(before, { ...body, id: before.id }, trigger));
          uow.enqueue(...liveConfigSyncEvents(before, { ...body, id: before.id }));
          uow.touchRules();
          // Read back under the lock: the response shows this PUT, not a later writer's.
          const after = await getCampaign(uow.tx, uow.shop.id, params.id);
          if (!after) throw campaignNotFound();
          // The same shape as GET's (SPEC), budget usage included: the editor shows the answer without reading again.
          return presentFor(trigger, uow.tx, uow.shop, after, ctx.now().getTime());
        });
        return { campaign };
      },
    }),

    defineShopRoute({
      method: 'DELETE',
      path: '/campaigns/:id',
      operationId: 'deleteCampaign',
      summary: 'Delete a campaign, its rules and its events',
      tag: 'Campaigns',
      rateLimit: 'default',
      params: campaignIdParamsSchema,
      responses: { 200: { description: '`{ "ok": true }`', schema: okResponseSchema }, 404: notFoundResponse },
      handler: async ({ shop, params, trigger }) => {
        await writeShop(ctx, shop.id, async (uow) => {
          const before = await getCampaign(uow.tx, uow.shop.id, params.id);
          if (!before) throw campaignNotFound();
          await deleteCampaign(uow.tx, uow.shop.id, params.id);
          uow.enqueue(...liveTransitionEvents(before, null, trigger));
          uow.touchRules();
        });
        return { ok: true as const };
      },
    }),
  ];
}

/** A rule id in a PUT body must name a rule of this campaign, once. */
async function assertRuleIdsBelong(tx: Tx, shopId: string, campaignId: string, rules: Array<{ id?: string | undefined }>) {
  const ids = rules.flatMap((r) => (r.id === undefined ? [] : [r.id]));
  const known = await ruleIdsOf(tx, shopId, campaignId, ids);
  const seen = new Set<string>();
  for (const [index, rule] of rules.entries()) {
    if (rule.id === undefined) continue;
    const issue = seen.has(rule.id)
      ? 'This rule id appears more than once'
      : known.has(rule.id)
        ? undefined
        : 'No rule with this id belongs to the campaign; leave id out to create a rule';
    if (issue) throw new ApiError('validation', { error: 'Invalid request body', issue, path: ['rules', index, 'id'] });
    seen.add(rule.id);
  }
}

/** SPEC "PUT" rule 3: 409 if the update would remove or replace a rule of a running experiment. */
async function assertExperimentRulesKept(tx: Tx, shopId: string, campaignId: string, rules: Array<{ id?: string | undefined }>) {
  const experiment = await getRunningExperiment(tx, shopId, campaignId);
  if (!experiment) return;
  const kept = new Set(rules.flatMap((r) => (r.id === undefined ? [] : [r.id])));
  const missing = experiment.variants.map((v) => v.ruleId).filter((ruleId) => !kept.has(ruleId));
  if (missing.length > 0) {
    throw new ApiError('conflict', {
      error: 'Rule belongs to a running A/B experiment; stop the experiment first',
      experimentId: experiment.id,
      ruleIds: missing,
    });
  }
}
