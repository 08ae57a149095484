/**
 * CONTRACT "Admin API": POST /admin/v1/shops/:shopId/simulate evaluates like /api/v1/evaluate,
 * drafts included: one stored campaign whatever its state (`campaignId`), an inline campaign
 * that is never saved (`campaign`), or, with neither, every campaign of the shop.
 */
import { compileRules } from '@gcrs/engine';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import type { ShopRecord } from '../shops/store.ts';
import { customerRedemptions } from './customer-redemptions.ts';
import { evaluateContext } from './evaluate.ts';
import type { SimulateBody } from './schemas.ts';
import { evaluateQuerySchema, evaluationResponseSchema, simulateBodySchema } from './schemas.ts';
import { inlineCampaign, simulationPayload } from './simulation-payload.ts';
import { loadCampaignForSimulation, loadShopForSimulation } from './simulation-source.ts';
import type { SimulationSource } from './simulation-source.ts';

/** The campaigns a simulate body names; undefined when `campaignId` is not the shop's. */
async function sourceOf(ctx: AppContext, shop: ShopRecord, body: SimulateBody): Promise<SimulationSource | undefined> {
  if (body.campaign !== undefined) return { campaigns: [inlineCampaign(body.campaign, shop.plan)], experiments: [] };
  if (body.campaignId !== undefined) return loadCampaignForSimulation(ctx.db, shop.id, body.campaignId);
  return loadShopForSimulation(ctx.db, shop.id);
}

/**
 * The simulator, an admin route (the admin mount's resolver has found the shop).
 *
 * @example
 *   simulateAdminRoutes(ctx); // POST /admin/v1/shops/:shopId/simulate
 */
export function simulateAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/simulate',
      operationId: 'simulate',
      summary: 'Evaluate drafts or an inline campaign against a context',
      description:
        'Like POST /api/v1/evaluate, drafts included: `campaignId` evaluates one stored campaign whatever its state, ' +
        '`campaign` an inline import entry (never saved), neither every campaign of the shop. `at` sets the instant; ' +
        '`redemptions` ({ ruleId: count }) tries per-customer limits with counts of your choosing for the context\'s ' +
        'customer, else their stored counts apply; `?trace=false` leaves the traces out.',
      tag: 'Simulation',
      query: evaluateQuerySchema,
      body: simulateBodySchema,
      responses: {
        200: { description: 'Results with full traces, and cart operations', schema: evaluationResponseSchema },
        400: { description: 'Invalid body (`issue` and `path` name the first bad field)' },
        404: { description: '`{ "error": "Campaign not found" }` (or the shop)' },
      },
      handler: async ({ shop, query, body }) => {
        const source = await sourceOf(ctx, shop, body);
        if (!source) throw notFound('Campaign');
        // Drafts change with every edit: compiled per request, unlike the live payload.
        const rules = compileRules(simulationPayload(source.campaigns, source.experiments, shop));
        // A what-if map stands for the stored counts of the context's customer.
        const redemptions = body.redemptions ?? (await customerRedemptions(ctx.db, shop.id, rules, body.context));
        return evaluateContext(rules, body.context, body.at ?? ctx.now(), { trace: query.trace, redemptions });
      },
    }),
  ];
}
