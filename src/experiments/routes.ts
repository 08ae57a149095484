/**
 * Admin API: A/B experiments of a campaign (CONTRACT "Admin API"). Start, stop and conclude
 * change what GET /rules returns, so each bumps the shop's rules version in its transaction
 * (which also takes the shop row lock: two starts for one campaign cannot both pass the
 * one-running-experiment check).
 */
import type { FastifyInstance } from 'fastify';
import { shopFromPath } from '../admin/admin-auth.ts';
import { presentExperiment } from '../campaigns/present.ts';
import { getCampaign, getRunningExperiment, ruleIdsOf } from '../campaigns/store.ts';
import type { AppContext } from '../context.ts';
import { ApiError, conflict, notFound, parseOr400 } from '../http/errors.ts';
import { bumpRulesVersion } from '../shops/store.ts';
import {
  campaignParamsSchema,
  concludeExperimentBodySchema,
  experimentParamsSchema,
  startExperimentBodySchema,
} from './schemas.ts';
import { getExperiment, insertExperiment, listExperiments, updateExperiment } from './store.ts';
import { concludeTransition, stopTransition } from './transitions.ts';
import type { TransitionOutcome } from './transitions.ts';

const BASE = '/shops/:shopId/campaigns/:campaignId/experiments';

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

export function registerExperimentAdminRoutes(admin: FastifyInstance, ctx: AppContext): void {
  admin.get(BASE, async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const params = parseOr400(campaignParamsSchema, request.params, 'Invalid path parameters');
    if (!(await getCampaign(ctx.db, shop.id, params.campaignId))) throw notFound('Campaign');
    const rows = await listExperiments(ctx.db, shop.id, params.campaignId);
    return { experiments: rows.map(presentExperiment) };
  });

  admin.post(BASE, async (request, reply) => {
    const shop = await shopFromPath(ctx.db, request);
    const params = parseOr400(campaignParamsSchema, request.params, 'Invalid path parameters');
    const body = parseOr400(startExperimentBodySchema, request.body, 'Invalid request body');
    const experiment = await ctx.db.transaction(async (tx) => {
      await bumpRulesVersion(tx, shop.id);
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
    ctx.rulesCache.invalidate(shop.id);
    return reply.code(201).send({ experiment: presentExperiment(experiment) });
  });

  admin.post(`${BASE}/:experimentId/stop`, async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const params = parseOr400(experimentParamsSchema, request.params, 'Invalid path parameters');
    const experiment = await ctx.db.transaction(async (tx) => {
      await bumpRulesVersion(tx, shop.id);
      const current = await getExperiment(tx, shop.id, params.campaignId, params.experimentId);
      if (!current) throw notFound('Experiment');
      const outcome = stopTransition(current, new Date());
      if (!outcome.ok) throw refusal(outcome, current.status);
      return updateExperiment(tx, shop.id, current.id, outcome.changes);
    });
    ctx.rulesCache.invalidate(shop.id);
    return { experiment: presentExperiment(experiment) };
  });

  admin.post(`${BASE}/:experimentId/conclude`, async (request) => {
    const shop = await shopFromPath(ctx.db, request);
    const params = parseOr400(experimentParamsSchema, request.params, 'Invalid path parameters');
    const body = parseOr400(concludeExperimentBodySchema, request.body, 'Invalid request body');
    const experiment = await ctx.db.transaction(async (tx) => {
      await bumpRulesVersion(tx, shop.id);
      const current = await getExperiment(tx, shop.id, params.campaignId, params.experimentId);
      if (!current) throw notFound('Experiment');
      const outcome = concludeTransition(current, body.winnerVariantId, new Date());
      if (!outcome.ok) throw refusal(outcome, current.status);
      return updateExperiment(tx, shop.id, current.id, outcome.changes);
    });
    ctx.rulesCache.invalidate(shop.id);
    return { experiment: presentExperiment(experiment) };
  });
}
