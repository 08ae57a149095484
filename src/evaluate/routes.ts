/** CONTRACT "Evaluation": POST /evaluate runs the shop's live rules against a cart, with a full trace. */
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { evaluateWithTrace } from './evaluate.ts';
import { liveCompiledRules } from './live-rules.ts';
import { evaluateBodySchema, evaluationResponseSchema } from './schemas.ts';

// Error statuses are documented with the shared Error schema; this only marks that they have a body.

export function evaluateRoutes(ctx: AppContext): ShopRoute[] {
  return [
    defineShopRoute({
      method: 'POST',
      path: '/evaluate',
      operationId: 'evaluateRules',
      summary: 'Evaluate the live rules against a cart',
      description:
        'Evaluates exactly the rules GET /rules serves now (live campaigns inside their schedule window, running ' +
        'experiments with the variant assigned by `visitorId`, `shopSettings.engine.useDiscountedPrices`, thresholds ' +
        "in the shop's currency) with a full trace per rule, and lists the add / remove / choose operations that bring " +
        'the cart to the state the rules call for. Every gift is taken as available.',
      tag: 'Evaluation',
      rateLimit: 'default',
      body: evaluateBodySchema,
      responses: {
        200: { description: 'Each rule\'s result with its trace, and the cart operations', schema: evaluationResponseSchema },
        400: { description: 'Invalid context (`issue` and `path` name the first bad field)' },
      },
      handler: async ({ shop, trigger, body }) => {
        const rules = await liveCompiledRules(ctx.rulesCache, shop, trigger);
        if (!rules) throw notFound('Shop');
        return evaluateWithTrace(rules, body, ctx.now());
      },
    }),
  ];
}
