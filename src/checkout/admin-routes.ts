/**
 * Admin API: what the checkout discount's configuration holds (docs/checkout-function.md "How
 * the sync writes it"): the metafields the sync last wrote to the platform, or, for a shop
 * without a platform connection, recorded as they would be written.
 */
import { CHECKOUT_CONFIG_LIMIT_BYTES, splitCheckoutConfig, utf8Length } from '@gcrs/engine/checkout';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { getCheckoutConfig } from './config-store.ts';

const checkoutConfigResponseSchema = z.object({
  checkoutConfig: z.object({
    target: z.enum(['platform', 'recorded']).meta({
      description: '`platform`: written to the shop\'s discount metafields; `recorded`: no platform connection, this is what they would hold',
    }),
    platformDiscountId: z.string().nullable(),
    config: z.record(z.string(), z.unknown()).meta({ description: 'The whole configuration: the `$app:gifts`/`config` metafield, continued in `config2` when it does not fit one' }),
    variables: z.record(z.string(), z.unknown()).meta({ description: 'The `$app:gifts`/`vars` metafield (input query variables)' }),
    bytes: z.int().meta({ description: 'The configuration\'s and the variables\' JSON in UTF-8 bytes' }),
    metafields: z
      .array(z.object({ key: z.string(), bytes: z.int() }))
      .meta({ description: 'Each metafield as written (`config`, `config2`, `vars`) and its UTF-8 bytes; each is at most `limit`' }),
    limit: z.int().meta({ description: 'The platform\'s limit per metafield, 10,000 bytes' }),
    writtenAt: z.iso.datetime(),
    lastError: z.string().nullable().meta({ description: 'The last failed write to the platform since `writtenAt`' }),
    lastErrorAt: z.iso.datetime().nullable(),
  }),
});

export function checkoutAdminRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/checkout-config',
      operationId: 'getCheckoutConfig',
      summary: 'The checkout discount\'s configuration as the sync last wrote it',
      description:
        'The configuration spans the discount\'s metafields `config` and `config2` (`{}` when unused); one that does not fit them is never written, so each of `metafields` is at most `limit`; the sync job\'s `lastError` says when one was refused.',
      tag: 'Checkout',
      responses: {
        200: { description: 'The configuration', schema: checkoutConfigResponseSchema },
        404: { description: '`{ "error": "Checkout configuration not found" }`: no discount sync has written one yet' },
      },
      handler: async ({ shop }) => {
        const record = await getCheckoutConfig(ctx.db, shop.id);
        if (!record) throw notFound('Checkout configuration');
        return {
          checkoutConfig: {
            target: record.target,
            platformDiscountId: record.platformDiscountId,
            config: record.config,
            variables: record.variables,
            bytes: record.bytes,
            metafields: [
              ...splitCheckoutConfig(record.config).metafields.map(({ key, bytes }) => ({ key, bytes })),
              { key: 'vars', bytes: utf8Length(JSON.stringify(record.variables)) },
            ],
            limit: CHECKOUT_CONFIG_LIMIT_BYTES,
            writtenAt: record.writtenAt.toISOString(),
            lastError: record.lastError,
            lastErrorAt: record.lastErrorAt?.toISOString() ?? null,
          },
        };
      },
    }),
  ];
}
