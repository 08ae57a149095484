/**
 * Admin API: A/B experiments of a campaign (CONTRACT "Admin API"). Start, stop and conclude
 * change what GET /rules returns, so each runs as a unit of work of the shop that touches the
 * rules (its shop row lock also means two starts for one campaign cannot both pass the
 * one-running-experiment check).
 */
import { z } from 'zod';
import { presentExperiment } from '../campaigns/present.ts';
import { experimentResponseSchema } from '../campaigns/schemas.ts';
import { getCampaign, getRunningExperiment, ruleIdsOf } from '../campaigns/store.ts';
import type { AppContext } from '../context.ts';
import { ApiError, conflict, notFound } from '../http/errors.ts';
import { errorWith } from '../http/openapi-components.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import {
  campaignParamsSchema,
  concludeExperimentBodySchema,
  experimentParamsSchema,
  startExperimentBodySchema,
} from './schemas.ts';
import { getExperiment, insertExperiment, listExperiments, updateExperiment } from './store.ts';
import { concludeTransition, stopTransition } from './transitions.ts';
import type { TransitionOutcome } from './transitions.ts';

// Relative to the admin shop mount, /admin/v1/shops/:shopId.
const BASE = '/campaigns/:campaignId/experiments';

const one = z.object({ experiment: experimentResponseSchema });
const badBody = { description: 'Invalid body, or a variant naming a rule of another campaign' };
const experimentNotFound = { description: '`{ "error": "Experiment not found" }`' };
const notRunning = {
  description: 'Not running, or already concluded: `{ "error": "Experiment is not running", "status" }`',
  schema: errorWith({ status: z.string() }),
};

const invalidBody = (issue: string, path: Array<string | number>) =>
  new ApiError('validation', { error: 'Invalid request body', issue, path });

/** A refused transition as the error the admin sees. */
function refusal(outcome: Extract<TransitionOutcome, { ok: false }>, status: string): ApiError {
  switch (outcome.reason) {
    case 'not_running':
      return conflict('Experiment is not running', { status });
    case 'already_concluded':
      return conflict('Experiment is already concluded', { status });
    case 'unknown_variant':
      return invalidBody('winnerVariantId must name a variant of this experiment', ['winnerVariantId']);
  }
}

export function experimentAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: BASE,
      operationId: 'listExperiments',
      summary: 'List a campaign\'s experiments',
      tag: 'Experiments',
      params: campaignParamsSchema,
      responses: {
        200: { description: 'The experiments', schema: z.object({ experiments: z.array(experimentResponseSchema) }) },
        404: { description: '`{ "error": "Campaign not found" }`' },
      },
      handler: async ({ shop, params }) => {
        if (!(await getCampaign(ctx.db, shop.id, params.campaignId))) throw notFound('Campaign');
        const rows = await listExperiments(ctx.db, shop.id, params.campaignId);
        return { experiments: rows.map(presentExperiment) };
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: BASE,
      operationId: 'startExperiment',
      summary: 'Start an A/B experiment between rules of the campaign',
      description: 'At most one experiment of a campaign runs at a time; each variant names a rule of the campaign.',
      tag: 'Experiments',
      params: campaignParamsSchema,
      body: startExperimentBodySchema,
      responses: {
        201: { description: 'The running experiment', schema: one },
        400: badBody,
        404: { description: '`{ "error": "Campaign not found" }`' },
        409: {
          description: 'The campaign already has a running experiment: `{ error, experimentId }`',
          schema: errorWith({ experimentId: z.string() }),
        },
      },
      handler: async ({ shop, params, body, reply }) => {
        const experiment = await writeShop(ctx, shop.id, async ({ tx, touchRules }) => {
          touchRules();
          if (!(await getCampaign(tx, shop.id, params.campaignId))) throw notFound('Campaign');
          const known = await ruleIdsOf(
            tx,
            shop.id,
            params.campaignId,
            body.variants.map((variant) => variant.ruleId),
          );
          const stranger = body.variants.findIndex((variant) => !known.has(variant.ruleId));
          if (stranger >= 0) throw invalidBody('No rule with this id belongs to the campaign', ['variants', stranger, 'ruleId']);
          const running = await getRunningExperiment(tx, shop.id, params.campaignId);
          if (running) {
            throw conflict('The campaign already has a running experiment; stop it first', { experimentId: running.id });
          }
          return insertExperiment(tx, shop.id, params.campaignId, body, new Date());
        });
        return reply.code(201).send({ experiment: presentExperiment(experiment) });
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: `${BASE}/:experimentId/stop`,
      operationId: 'stopExperiment',
      summary: 'Stop a running experiment (every visitor then gets the campaign\'s rules as without it)',
      tag: 'Experiments',
      params: experimentParamsSchema,
      responses: { 200: { description: 'The stopped experiment', schema: one }, 404: experimentNotFound, 409: notRunning },
      handler: async ({ shop, params }) => {
        const experiment = await writeShop(ctx, shop.id, async ({ tx, touchRules }) => {
          touchRules();
          const current = await getExperiment(tx, shop.id, params.campaignId, params.experimentId);
          if (!current) throw notFound('Experiment');
          const outcome = stopTransition(current, new Date());
          if (!outcome.ok) throw refusal(outcome, current.status);
          return updateExperiment(tx, shop.id, current.id, outcome.changes);
        });
        return { experiment: presentExperiment(experiment) };
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: `${BASE}/:experimentId/conclude`,
      operationId: 'concludeExperiment',
      summary: 'Conclude an experiment with its winning variant',
      tag: 'Experiments',
      params: experimentParamsSchema,
      body: concludeExperimentBodySchema,
      responses: {
        200: { description: 'The concluded experiment', schema: one },
        400: { description: 'Invalid body, or `winnerVariantId` names no variant of this experiment' },
        404: experimentNotFound,
        409: notRunning,
      },
      handler: async ({ shop, params, body }) => {
        const experiment = await writeShop(ctx, shop.id, async ({ tx, touchRules }) => {
          touchRules();
          const current = await getExperiment(tx, shop.id, params.campaignId, params.experimentId);
          if (!current) throw notFound('Experiment');
          const outcome = concludeTransition(current, body.winnerVariantId, new Date());
          if (!outcome.ok) throw refusal(outcome, current.status);
          return updateExperiment(tx, shop.id, current.id, outcome.changes);
        });
        return { experiment: presentExperiment(experiment) };
      },
    }),
  ];
}
