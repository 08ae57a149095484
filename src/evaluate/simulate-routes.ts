/**
 * CONTRACT "Admin API": POST /admin/v1/shops/:shopId/simulate evaluates like /api/v1/evaluate,
 * drafts included: one stored campaign whatever its state (`campaignId`), an inline campaign
 * that is never saved (`campaign`), or, with neither, every campaign of the shop.
 */
import { compileRules } from '@gcrs/engine';
import type { FastifyInstance } from 'fastify';
import { shopFromPath } from '../admin/admin-auth.ts';
import type { AppContext } from '../context.ts';
import { notFound, parseOr400 } from '../http/errors.ts';
import { adminOperation } from '../http/openapi.ts';
import type { ShopRecord } from '../shops/store.ts';
import { evaluateWithTrace } from './evaluate.ts';
import type { SimulateBody } from './schemas.ts';
import { evaluationResponseSchema, simulateBodySchema } from './schemas.ts';
import { inlineCampaign, simulationPayload } from './simulation-payload.ts';
import { loadCampaignForSimulation, loadShopForSimulation } from './simulation-source.ts';
import type { SimulationSource } from './simulation-source.ts';

/** The campaigns a simulate body names; undefined when `campaignId` is not the shop's. */
async function sourceOf(ctx: AppContext, shop: ShopRecord, body: SimulateBody): Promise<SimulationSource | undefined> {
  if (body.campaign !== undefined) return { campaigns: [inlineCampaign(body.campaign, shop.plan)], experiments: [] };
  if (body.campaignId !== undefined) return loadCampaignForSimulation(ctx.db, shop.id, body.campaignId);
  return loadShopForSimulation(ctx.db, shop.id);
}

/** The simulator's entry in the OpenAPI document (issue 4: /evaluate and simulate are both documented). */
export const simulateOpenApiPaths = {
  '/admin/v1/shops/{shopId}/simulate': {
    post: adminOperation({
      operationId: 'simulate',
      summary: 'Evaluate drafts or an inline campaign against a context (admin)',
      description:
        'Like POST /api/v1/evaluate, drafts included: `campaignId` evaluates one stored campaign whatever its state, ' +
        '`campaign` an inline import entry (never saved), neither every campaign of the shop. `at` sets the instant.',
      body: simulateBodySchema,
      response: evaluationResponseSchema,
    }),
  },
};

/**
 * Registers the simulator on the admin scope (whose hook has checked the admin token).
 *
 * @example
 *   registerSimulateAdminRoute(admin, ctx); // POST /admin/v1/shops/:shopId/simulate
 */
export function registerSimulateAdminRoute(admin: FastifyInstance, ctx: AppContext): void {
  admin.post('/shops/:shopId/simulate', async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const body = parseOr400(simulateBodySchema, request.body, 'Invalid request body');
    const source = await sourceOf(ctx, shop, body);
    if (!source) throw notFound('Campaign');
    // Drafts change with every edit: compiled per request, unlike the live payload.
    const rules = compileRules(simulationPayload(source.campaigns, source.experiments, shop));
    return evaluateWithTrace(rules, body.context, body.at ?? ctx.now());
  });
}
