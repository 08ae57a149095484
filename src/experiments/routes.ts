/**
 * Admin API: A/B experiments of a campaign (CONTRACT "Admin API"). Start, stop and conclude
 * change what GET /rules returns, so each runs as a unit of work of the shop that touches the
 * rules (its shop row lock also means two starts for one campaign cannot both pass the
 * one-running-experiment check).
 */
import { experimentAudienceWarnings } from '@gcrs/engine';
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
import { experimentResults } from './results.ts';
import { loadVariantFigures, windowOf } from './results-store.ts';
import {
  audienceWarningSchema,
  campaignParamsSchema,
  concludeExperimentBodySchema,
  experimentParamsSchema,
  experimentResultsSchema,
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
        201: {
          description:
            'The running experiment, and `warnings` (additive): in words, what it takes away — rules with different conditions ' +
            '(a shopper qualifying for one rule but assigned to another gets no gift) or a variant whose rule is disabled (a holdout)',
          schema: one.extend({ warnings: z.array(audienceWarningSchema) }),
        },
        400: badBody,
        404: { description: '`{ "error": "Campaign not found" }`' },
        409: {
          description: 'The campaign already has a running experiment: `{ error, experimentId }`',
          schema: errorWith({ experimentId: z.string() }),
        },
      },
      handler: async ({ shop, params, body, reply }) => {
        const { experiment, warnings } = await writeShop(ctx, shop.id, async ({ tx, touchRules }) => {
          touchRules();
          const campaign = await getCampaign(tx, shop.id, params.campaignId);
          if (!campaign) throw notFound('Campaign');
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
          return {
            experiment: await insertExperiment(tx, shop.id, params.campaignId, body, new Date()),
            warnings: experimentAudienceWarnings(body.variants, campaign.rules),
          };
        });
        return reply.code(201).send({ experiment: presentExperiment(experiment), warnings });
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: `${BASE}/:experimentId/results`,
      operationId: 'getExperimentResults',
      summary: 'Per-variant results of an experiment, with the leader, its significance and the sample size still needed',
      description:
        'Over the experiment\'s window (start to stop, or now): visitors (distinct visitor ids of the shop\'s storefront events, ' +
        'assigned by the storefront\'s hash), gift adds, orders with a gift line of the variant\'s rule, conversion, revenue per ' +
        'visitor and average order value; a two-sided test of the primary metric against the leader (two-proportion z-test for ' +
        'conversion, Welch for the money metrics), 5 % significance with Bonferroni, and the sample size for 80 % power to see a ' +
        '10 % change.',
      tag: 'Experiments',
      params: experimentParamsSchema,
      responses: {
        200: { description: 'The results', schema: z.object({ results: experimentResultsSchema }) },
        404: { description: '`{ "error": "Campaign not found" }` or `{ "error": "Experiment not found" }`' },
      },
      handler: async ({ shop, params }) => {
        const campaign = await getCampaign(ctx.db, shop.id, params.campaignId);
        if (!campaign) throw notFound('Campaign');
        const experiment = await getExperiment(ctx.db, shop.id, params.campaignId, params.experimentId);
        if (!experiment) throw notFound('Experiment');
        const now = new Date();
        const figures = await loadVariantFigures(ctx.db, shop.id, experiment, now);
        return {
          results: {
            ...experimentResults(experiment, figures, shop.currency, windowOf(experiment, now)),
            warnings: experimentAudienceWarnings(experiment.variants, campaign.rules),
          },
        };
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
