/**
 * SPEC "POST /campaigns/:id/enable|disable|schedule": the campaign's state transitions. Each
 * change and its side effects (rules version, discount sync job, webhook) commit in one unit
 * of work; a request that changes nothing has no side effects (it does not touch the rules).
 */
import type { AppContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { lowStockThresholdOf } from '../shops/settings.ts';
import { effectiveCaps } from '../shops/plans.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import { assertWithinCaps, isLive } from './caps.ts';
import { CHECKOUT_CONFIG_LIMIT_BYTES, CONFIG_METAFIELD_KEYS, estimateFunctionInput, inputSizeParts } from '@gcrs/engine/checkout';
import { configWithCampaign } from '../checkout/shop-checkout-config.ts';
import { checkCampaignHealth } from './health-check.ts';
import type { HealthWarning } from './health-check.ts';
import { healthMessage } from './health-message.ts';
import {
  disableResponseSchema,
  enableQuerySchema,
  enableResponseSchema,
  healthWarningsErrorSchema,
  scheduleBodySchema,
  scheduleResponseSchema,
} from './lifecycle-schemas.ts';
import { updateCampaignFields } from './lifecycle-store.ts';
import { campaignNotFound, notFoundResponse } from './responses.ts';
import { campaignIdParamsSchema } from './schemas.ts';
import { countForCaps, getCampaign, getCampaignRow } from './store.ts';
import { liveConfigSyncEvents, liveTransitionEvents } from './transitions.ts';


export function lifecycleRoutes(ctx: AppContext): ShopRoute[] {
  return [
    defineShopRoute({
      method: 'POST',
      path: '/campaigns/:id/enable',
      operationId: 'enableCampaign',
      summary: 'Enable a campaign (makes it live: enabled, not draft)',
      description:
        'Runs the health check against the catalog (gift inventory, gift product status, trigger product status); any ' +
        'warning answers 409 `health_warnings` unless `force=1`. 403 when the plan\'s active-campaign cap would be ' +
        'exceeded. Enabling a live campaign answers 200 and changes nothing.',
      tag: 'Campaigns',
      rateLimit: 'default',
      params: campaignIdParamsSchema,
      query: enableQuerySchema,
      responses: {
        200: { description: 'The campaign is live', schema: enableResponseSchema },
        403: { description: 'Active-campaign cap exceeded' },
        404: notFoundResponse,
        409: { description: 'Health check failed: `{ error: "health_warnings", warnings, message }`', schema: healthWarningsErrorSchema },
      },
      handler: async ({ shop, params, query, trigger }) => {
        await writeShop(ctx, shop.id, async (uow) => {
          const before = await getCampaign(uow.tx, uow.shop.id, params.id);
          if (!before) throw campaignNotFound();
          if (isLive(before)) return;
          // The cap first: force=1 cannot get past it, so its 403 is the more useful answer.
          const caps = effectiveCaps(ctx.config.planCaps, uow.shop.plan, uow.shop.limits);
          assertWithinCaps(await countForCaps(uow.tx, uow.shop.id, before.id), { campaigns: 0, rules: 0, activeCampaigns: 1 }, caps);
          if (!query.force) {
            const warnings: HealthWarning[] = await checkCampaignHealth(uow.tx, uow.shop.id, before.rules, lowStockThresholdOf(uow.shop.settings));
            // CONTRACT "Checkout": what does not fit the discount's metafield is reported here.
            const checkout = await configWithCampaign(uow.tx, uow.shop, before.id, before.rules);
            if (!checkout.fits) {
              warnings.unshift({ kind: 'checkout_config_size', bytes: checkout.bytes, limit: CHECKOUT_CONFIG_LIMIT_BYTES, metafields: CONFIG_METAFIELD_KEYS.length });
            }
            // docs/checkout-function.md "The input at 200 lines": collections asked × lines.
            const input = estimateFunctionInput(inputSizeParts(checkout));
            if (input.bytes > input.limit) warnings.splice(checkout.fits ? 0 : 1, 0, { kind: 'checkout_input_size', ...input });
            for (const { ruleId, reason } of checkout.excluded) {
              const own = before.rules.some((rule) => rule.id === ruleId);
              if (own && (reason === 'discount_code_condition' || reason === 'market_condition')) warnings.push({ kind: 'checkout_excluded', ruleId, reason });
            }
            if (warnings.length > 0) {
              throw new ApiError('health_warnings', { error: 'health_warnings', warnings, message: healthMessage(warnings) });
            }
          }
          const after = await updateCampaignFields(uow.tx, uow.shop.id, before.id, { enabled: true, isDraft: false });
          if (!after) throw campaignNotFound();
          uow.enqueue(...liveTransitionEvents(before, after, trigger));
          uow.touchRules();
        });
        return { ok: true as const, campaign: { id: params.id, enabled: true as const, isDraft: false as const } };
      },
    }),

    defineShopRoute({
      method: 'POST',
      path: '/campaigns/:id/disable',
      operationId: 'disableCampaign',
      summary: 'Disable a campaign',
      description: 'Disabling a disabled campaign answers 200 and changes nothing.',
      tag: 'Campaigns',
      rateLimit: 'default',
      params: campaignIdParamsSchema,
      responses: { 200: { description: 'The campaign is disabled', schema: disableResponseSchema }, 404: notFoundResponse },
      handler: async ({ shop, params, trigger }) => {
        await writeShop(ctx, shop.id, async (uow) => {
          const before = await getCampaignRow(uow.tx, uow.shop.id, params.id);
          if (!before) throw campaignNotFound();
          if (!before.enabled) return;
          const after = await updateCampaignFields(uow.tx, uow.shop.id, before.id, { enabled: false });
          if (!after) throw campaignNotFound();
          uow.enqueue(...liveTransitionEvents(before, after, trigger));
          uow.touchRules();
        });
        return { ok: true as const, campaign: { id: params.id, enabled: false as const } };
      },
    }),

    defineShopRoute({
      method: 'POST',
      path: '/campaigns/:id/schedule',
      operationId: 'scheduleCampaign',
      summary: 'Set or clear the campaign\'s start and end',
      description:
        'Send `startAt`, `endAt` or both; `null` clears one. The window must stay ordered: `endAt` strictly after ' +
        '`startAt`, checked against the stored value of a field left out. `enabled` is not changed.',
      tag: 'Campaigns',
      rateLimit: 'default',
      params: campaignIdParamsSchema,
      body: scheduleBodySchema,
      responses: {
        200: { description: 'The new schedule', schema: scheduleResponseSchema },
        400: { description: 'Invalid body (`issue` and `path` name the first bad field)' },
        404: notFoundResponse,
      },
      handler: async ({ shop, params, body }) => {
        const after = await writeShop(ctx, shop.id, async (uow) => {
          // Read under the shop lock: a concurrent schedule change cannot slip between read and write.
          const before = await getCampaignRow(uow.tx, uow.shop.id, params.id);
          if (!before) throw campaignNotFound();
          const startAt = body.startAt === undefined ? before.startAt : body.startAt;
          const endAt = body.endAt === undefined ? before.endAt : body.endAt;
          if (startAt !== null && endAt !== null && endAt <= startAt) {
            const field = body.endAt === undefined ? 'startAt' : 'endAt';
            throw new ApiError('validation', {
              error: 'Invalid request body',
              issue:
                field === 'endAt'
                  ? `endAt must be after startAt (${startAt.toISOString()})`
                  : `startAt must be before endAt (${endAt.toISOString()})`,
              path: [field],
            });
          }
          const updated = await updateCampaignFields(uow.tx, uow.shop.id, before.id, { startAt, endAt });
          if (!updated) throw campaignNotFound();
          uow.enqueue(...liveConfigSyncEvents(before, updated));
          uow.touchRules();
          return updated;
        });
        return {
          ok: true as const,
          campaign: { id: after.id, startAt: after.startAt?.toISOString() ?? null, endAt: after.endAt?.toISOString() ?? null },
        };
      },
    }),
  ];
}
