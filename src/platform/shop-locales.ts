/**
 * `GET …/shop-locales`: the languages the shop publishes to buyers, read from the platform through
 * the shop's connection (`shopLocales(published: true)`, scope `read_locales`), so the rule editor
 * can offer them for the discount title's translations (docs/merchant-admin.md "The shop's
 * languages"). A shop without a platform connection (self-hosted) has none to offer: `[]`. Every
 * way the platform can fail is a 4xx the editor shows beside the field, never a 5xx: the editor
 * works without the suggestions. Not cached: one read per editor opened, a cost of 1 against the
 * shop's Admin API bucket, and a language published a minute ago is offered at once.
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { ApiError, conflict } from '../http/errors.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { adminClient, adminRequest, PlatformAnswerError, PlatformUnauthorizedError } from './admin-client.ts';
import { SHOP_LOCALES_QUERY } from './admin-documents.ts';
import { markConnectionBroken, shopCredentials } from './connections.ts';
import { platformThrottled, refusedToken, unreadableToken } from './refusals.ts';

/** How long the merchant's screen waits for the platform before it is told the platform did not answer. */
export const SHOP_LOCALES_TIMEOUT_MS = 5000;

const platformAnswerSchema = z.object({
  shopLocales: z.array(z.object({ locale: z.string().min(1), primary: z.boolean(), published: z.boolean() })),
});

const shopLocalesSchema = z.object({
  locales: z
    .array(
      z.object({
        locale: z.string().meta({ description: 'The platform\'s locale code, e.g. `fr` or `pt-BR`' }),
        primary: z.boolean().meta({ description: 'The shop\'s default language (the rule\'s `discountTitle` is in it)' }),
      }),
    )
    .meta({ description: 'Published languages, the primary one first; `[]` for a shop without a platform connection' }),
});

export type ShopLocale = z.output<typeof shopLocalesSchema>['locales'][number];

/** What the merchant reads for a failed read: 409 (429 when the platform throttles), as billing's refusals. */
function refusal(error: unknown): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof PlatformUnauthorizedError) return refusedToken(message);
  if (error instanceof PlatformAnswerError && (error.statusCode === 429 || error.codes.includes('THROTTLED'))) {
    return platformThrottled('The platform is throttling this shop\'s requests', Math.max(1, Math.ceil((error.retryAfterMs ?? 2000) / 1000)));
  }
  if (error instanceof PlatformAnswerError && error.codes.includes('ACCESS_DENIED')) {
    return conflict('The app may not read the shop\'s languages', {
      issue: 'It needs the read_locales access scope: open the app from the platform\'s admin and approve its updated access',
    });
  }
  return conflict('The platform did not answer with the shop\'s languages', { issue: `${message}; type the locale code, or try again` });
}

/**
 * The shop's published locales, the primary first; `[]` without a connection. Throws the ApiError
 * to answer when the platform does not give them (a refused token also marks the connection broken).
 *
 * @example const locales = await readShopLocales(ctx, shop.id); // [{ locale: 'en', primary: true }, { locale: 'fr', primary: false }]
 */
export async function readShopLocales(ctx: AppContext, shopId: string): Promise<ShopLocale[]> {
  const credentials = await shopCredentials(ctx.db, ctx.config.platformAppSecret, shopId);
  if (credentials.state === 'none') return [];
  if (credentials.state === 'unreadable') throw unreadableToken();
  const url = ctx.config.platformAdminApiUrl;
  const client = adminClient(credentials, url === undefined ? {} : { adminApiUrl: url });
  try {
    const answer = await adminRequest(client, 'Reading the shop\'s languages', SHOP_LOCALES_QUERY, {}, (d) => platformAnswerSchema.parse(d), {
      signal: AbortSignal.timeout(SHOP_LOCALES_TIMEOUT_MS),
    });
    const published = answer.shopLocales.filter((l) => l.published).map(({ locale, primary }) => ({ locale, primary }));
    return [...published.filter((l) => l.primary), ...published.filter((l) => !l.primary)];
  } catch (error) {
    if (error instanceof PlatformUnauthorizedError) await markConnectionBroken(ctx.db, shopId, error.message, ctx.now());
    throw refusal(error);
  }
}

export function shopLocaleRoutes(ctx: AppContext): MountableRoute[] {
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/shop-locales',
      operationId: 'listShopLocales',
      summary: 'The languages the shop publishes, from the platform: what the rule editor offers for the discount title\'s translations',
      description:
        'The Admin API\'s `shopLocales(published: true)` through the shop\'s platform connection (scope `read_locales`), read at each request. ' +
        'A shop without a platform connection answers `{ "locales": [] }`. Platform failures are answered 409 (429 when it throttles), never 5xx.',
      tag: 'Platform connection',
      responses: {
        200: { description: 'The published languages', schema: shopLocalesSchema },
        409: {
          description:
            'The shop\'s connection is broken (the platform refused its token), the app lacks `read_locales` (the merchant approves the updated access), ' +
            'or the platform did not answer (an outage, an error, no answer in 5 s): `issue` says which',
        },
        429: { description: 'The platform is throttling the shop: `Retry-After` seconds' },
      },
      handler: async ({ shop, request }) => {
        try {
          return { locales: await readShopLocales(ctx, shop.id) };
        } catch (error) {
          request.log.warn({ detail: error instanceof ApiError ? error.body : String(error) }, 'shop locales not read');
          throw error;
        }
      },
    }),
  ];
}
