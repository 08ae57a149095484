/** SPEC "GET /rules": the active rules payload, with ETag / If-None-Match and a 60 s private cache. */
import type { AppContext } from '../context.ts';
import { chooseContentCoding } from '../http/accept-encoding.ts';
import { ifNoneMatchHits } from '../http/etag.ts';
import { notFound } from '../http/errors.ts';
import { defineShopRoute } from '../http/shop-routes.ts';
import type { ShopRoute } from '../http/shop-routes.ts';
import { rulesPayloadResponseSchema } from './schemas.ts';

/** SPEC "Limits": "Rules response cache | 60 seconds". */
export const RULES_CACHE_CONTROL = 'private, max-age=60';

const cacheHeaders = {
  ETag: 'Strong validator of this representation (one per content coding); send it back in If-None-Match',
  Vary: '`Accept-Encoding`',
  'Cache-Control': '`private, max-age=60`',
};

/** A `locale` query parameter given once, as text; anything else is no locale (the default texts). */
function localeOf(query: unknown): string | undefined {
  const locale = (query as { locale?: unknown } | undefined)?.locale;
  return typeof locale === 'string' && locale.length <= 35 ? locale : undefined;
}

export function rulesRoutes(ctx: AppContext): ShopRoute[] {
  return [
    defineShopRoute({
      method: 'GET',
      path: '/rules',
      operationId: 'getRules',
      summary: 'Read the active rules payload',
      description:
        'The enabled rules of live campaigns whose schedule window contains now, running experiments, shop settings ' +
        'and widgets. Send the last `ETag` in `If-None-Match` (lists, `W/` tags and `*` accepted) to get 304 when unchanged.',
      tag: 'Rules',
      rateLimit: 'default',
      requestHeaders: { 'If-None-Match': 'The `ETag` of the payload you hold: 304 while it is still current' },
      responses: {
        200: { description: 'The rules payload', schema: rulesPayloadResponseSchema, headers: cacheHeaders },
        304: { description: 'Not modified: the payload matches If-None-Match; no body', headers: cacheHeaders },
      },
      handler: async ({ shop, trigger, request, reply }) => {
        // The storefront script's `?locale=` (the page's, from the embed's data-locale): the rules'
        // translations it reads (CONTRACT's storefront variant; SPEC's GET /rules has no query,
        // so it is not in the OpenAPI document, and other mounts ignore it).
        const locale = localeOf(request.query);
        // A current entry is answered at once; only a miss waits (a load, a rebuild).
        const rules = ctx.rulesCache.current(shop, trigger, locale) ?? (await ctx.rulesCache.get(shop, trigger, locale));
        if (!rules) throw notFound('Shop');
        // Each coding has its own strong ETag, and a tag of any coding of the current payload
        // answers 304, with no compression: a coding's tag is known before its bytes.
        const coding = chooseContentCoding(request.headers['accept-encoding']);
        // Lower-case names, as Fastify stores them: no new string per header and request.
        if (ifNoneMatchHits(request.headers['if-none-match'], rules.etags)) {
          reply.header('etag', rules.tags[coding]).header('cache-control', RULES_CACHE_CONTROL).header('vary', 'Accept-Encoding');
          return reply.code(304).send();
        }
        // Compressed on first demand, off the event loop (rules-cache.ts); then ready bytes.
        const representation = await rules.representation(coding);
        reply.header('etag', representation.etag).header('cache-control', RULES_CACHE_CONTROL).header('vary', 'Accept-Encoding');
        if (representation.coding !== 'identity') reply.header('content-encoding', representation.coding);
        return reply.type('application/json; charset=utf-8').send(representation.body);
      },
    }),
  ];
}
