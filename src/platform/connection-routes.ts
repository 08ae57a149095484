/**
 * Admin API: a shop's platform connection (docs/checkout-function.md "Platform connection").
 * The operator sets the shop's offline Admin API access token (a platform shop gets it by token
 * exchange at its first embedded load: src/install/). No answer, list or
 * log ever carries the token. Without PLATFORM_APP_SECRET (which seals it) these routes do not
 * exist: 404, like the platform's other routes. Setting and forgetting the token are units of
 * work of the shop (shops/unit-of-work.ts).
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { queueConfigSync } from '../checkout/queue-config-sync.ts';
import { catalogImportStatus } from '../install/catalog-import.ts';
import { writeShop } from '../shops/unit-of-work.ts';
import { accessTokenSchema, connectionStatus, connectShop, disconnectShop } from './connections.ts';
import type { ConnectionStatus } from './connections.ts';

const connectBodySchema = z.strictObject({
  accessToken: accessTokenSchema.meta({ description: 'The shop\'s offline Admin API access token (`shpat_…`); never shown again' }),
});

const connectionSchema = z.object({
  connected: z.boolean(),
  connectedAt: z.iso.datetime().nullable(),
  broken: z.boolean().meta({ description: 'The platform refused the token (401): connect again with a new one' }),
  brokenAt: z.iso.datetime().nullable(),
  brokenReason: z.string().nullable(),
});

const catalogImportSchema = z
  .object({
    status: z.enum(['running', 'done']),
    pages: z.int(),
    products: z.int(),
    variants: z.int(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
    lastError: z.string().nullable().meta({ description: 'The last failed attempt\'s error (throttled, the platform down, an answer not as its schema says); retried with backoff' }),
  })
  .nullable()
  .meta({ description: 'The catalog import of the last install (docs/install.md); null when the shop never installed through the platform' });

const connectionWithImportSchema = connectionSchema.extend({ catalogImport: catalogImportSchema });

const present = (status: ConnectionStatus) => ({
  connected: status.connected,
  connectedAt: status.connectedAt?.toISOString() ?? null,
  broken: status.brokenAt !== null,
  brokenAt: status.brokenAt?.toISOString() ?? null,
  brokenReason: status.brokenReason,
});

export function platformConnectionAdminRoutes(ctx: AppContext): MountableRoute[] {
  const secret = ctx.config.platformAppSecret;
  if (secret === undefined) return [];
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'PUT',
      path: '/platform-connection',
      operationId: 'connectShopToPlatform',
      summary: 'Set the shop\'s platform access token',
      description:
        'Stores the token sealed (AES-256-GCM, key derived from PLATFORM_APP_SECRET) and replaces any earlier one. ' +
        'From then on the discount sync writes the checkout configuration to the shop\'s discount through the Admin API; ' +
        'a sync is queued at once when the shop has a live campaign.',
      tag: 'Platform connection',
      body: connectBodySchema,
      bodyError: 'Invalid platform connection body',
      responses: {
        200: { description: 'Connected (never the token)', schema: connectionSchema },
        400: { description: '`accessToken` missing or not a token' },
      },
      handler: async ({ shop, body, request }) => {
        const status = await writeShop(ctx, shop.id, async (uow) => {
          const connected = await connectShop(uow.tx, secret, uow.shop.id, body.accessToken, ctx.now());
          await queueConfigSync(uow.tx, uow.shop.id, ctx.now());
          return connected;
        });
        request.log.info('platform connection set');
        return present(status);
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/platform-connection',
      operationId: 'getPlatformConnection',
      summary: 'Whether the shop holds a platform access token (never the token), and its catalog import',
      tag: 'Platform connection',
      responses: { 200: { description: 'The connection\'s state', schema: connectionWithImportSchema } },
      handler: async ({ shop }) => {
        const run = await catalogImportStatus(ctx.db, shop.id);
        const catalogImport = run && {
          status: run.status as 'running' | 'done',
          pages: run.pages,
          products: run.products,
          variants: run.variants,
          startedAt: run.startedAt.toISOString(),
          finishedAt: run.finishedAt?.toISOString() ?? null,
          lastError: run.lastError,
        };
        return { ...present(await connectionStatus(ctx.db, shop.id)), catalogImport: catalogImport ?? null };
      },
    }),

    defineAdminRoute({
      scope: 'shop',
      method: 'DELETE',
      path: '/platform-connection',
      operationId: 'disconnectShopFromPlatform',
      summary: 'Forget the shop\'s platform access token',
      description: 'Later syncs only record the configuration (GET …/checkout-config); the discount on the platform keeps its last one.',
      tag: 'Platform connection',
      responses: {
        200: { description: 'Disconnected', schema: connectionSchema },
        404: { description: '`{ "error": "Platform connection not found" }`: the shop holds no token' },
      },
      handler: async ({ shop, request }) => {
        await writeShop(ctx, shop.id, async (uow) => {
          if (!(await disconnectShop(uow.tx, uow.shop.id))) throw notFound('Platform connection');
        });
        request.log.info('platform connection removed');
        return present(await connectionStatus(ctx.db, shop.id));
      },
    }),
  ];
}
