/** CONTRACT "Evaluation": POST /evaluate runs the shop's live rules against a cart, with a full trace. */
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { createCollectionsMemo } from './collections-memo.ts';
import { customerRedemptions } from './customer-redemptions.ts';
import { evaluateContext } from './evaluate.ts';
import { EVALUATE_BODY_LIMIT_BYTES, MAX_CART_LINES, MAX_TRACE_NODES } from './limits.ts';
import { liveCompiledRules } from './live-rules.ts';
import { acceptEvaluateBody, evaluateBodySchema, evaluateQuerySchema, evaluationResponseSchema } from './schemas.ts';

// Error statuses are documented with the shared Error schema; this only marks that they have a body.

export function evaluateRoutes(ctx: AppContext): ShopRoute[] {
  // A storefront sends the same collections map request after request (collections-memo.ts).
  const collections = createCollectionsMemo();
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
        'the cart to the state the rules call for. Sold-out gifts are skipped as GET /rules does (fallbackOnOOS). `?trace=false` answers without ' +
        'traces (cheaper to build, send and parse). Limits: a body of at most ' + `${EVALUATE_BODY_LIMIT_BYTES} bytes ` +
        `(413), at most ${MAX_CART_LINES} cart lines (400, path \`["cart", "lines"]\`), and at most ${MAX_TRACE_NODES} ` +
        'trace nodes per response: past that, a rule\'s trace is its root only, with `truncated: true`. A rule with ' +
        '`options.maxPerCustomer` gives only to a logged-in `customer.id` whose redemptions (GET /redemptions) are below it; ' +
        'its result says so in `limit`.',
      tag: 'Evaluation',
      rateLimit: 'default',
      query: evaluateQuerySchema,
      body: evaluateBodySchema,
      fastJson: (text, shopId) => (shopId === undefined ? JSON.parse(text) : collections.parse(shopId, text)),
      fastBody: (body, shopId) => {
        if (shopId === undefined) return acceptEvaluateBody(body);
        const context = acceptEvaluateBody(body, collections.known(shopId));
        if (context?.collections !== undefined) collections.remember(shopId, context.collections);
        return context;
      },
      bodyLimit: EVALUATE_BODY_LIMIT_BYTES,
      responses: {
        200: { description: 'Each rule\'s result with its trace (unless `?trace=false`), and the cart operations', schema: evaluationResponseSchema },
        400: { description: 'Invalid context or query (`issue` and `path` name the first bad field)' },
        413: { description: `The body is larger than ${EVALUATE_BODY_LIMIT_BYTES} bytes` },
      },
      handler: async ({ shop, trigger, query, body }) => {
        const rules = await liveCompiledRules(ctx.rulesCache, shop, trigger);
        if (!rules) throw notFound('Shop');
        const redemptions = await customerRedemptions(ctx.db, shop.id, rules, body);
        return evaluateContext(rules, body, ctx.now(), { trace: query.trace, redemptions });
      },
    }),
  ];
}
