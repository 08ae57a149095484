/**
 * The OpenAPI 3.1 documents of the API, generated from the very Zod schemas the routes
 * validate with (STYLE "Schemas are the single source of truth"): they cannot drift from them.
 * Two documents, one builder: the public API (`/api/v1`, API keys) and the admin API
 * (`/admin/v1`, the admin token: its own routes plus the public ones on the shop mount).
 */
import { conditionNodeSchema } from '@gcrs/engine';
import { buildConditionNodeJsonSchema } from '@gcrs/engine/json-schema';
import { z } from 'zod';
import { RATE_LIMIT_POLICIES } from '../rate-limit/policies.ts';
import { buildConditionTraceJsonSchema, conditionTraceSchema } from './condition-trace-schema.ts';
import { errorBodySchema, HEADER_COMPONENTS, headerRef, RESPONSE_COMPONENTS, TAGS } from './openapi-components.ts';
import type { JsonSchema } from './openapi-components.ts';
import type { MountableRoute, ShopRoute } from './shop-routes.ts';

const SCHEMAS = '#/components/schemas/';

// Schemas documented once, as named components, and referenced wherever a route uses them.
const NAMED_SCHEMAS = new Map<unknown, string>([
  [conditionNodeSchema, 'ConditionNode'],
  [conditionTraceSchema, 'ConditionTrace'],
]);

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...body } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      // The condition tree validates iteratively (any depth) and the trace is written by the
      // server: both are documented as recursive components.
      const name = NAMED_SCHEMAS.get(ctx.zodSchema);
      if (name !== undefined) {
        for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
        ctx.jsonSchema.$ref = `${SCHEMAS}${name}`;
      }
    },
  });
  return body;
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Which API an operation is described for: the public one, the admin one, or the merchant admin app's mount. */
type Audience = 'public' | 'admin' | 'app';

function parametersOf(route: MountableRoute, audience: Audience): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  const seen = new Set<string>();
  if (audience === 'admin' && route.scope === 'shop') {
    parameters.push({ $ref: '#/components/parameters/ShopId' });
    seen.add('shopId');
  }
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = toJsonSchema(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      if (seen.has(name)) continue;
      seen.add(name);
      parameters.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof property.description === 'string' ? { description: property.description } : {}),
        schema: property,
      });
    }
  }
  for (const [name, description] of Object.entries(route.requestHeaders ?? {})) {
    parameters.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  }
  // A path segment no schema describes is still a parameter (the linter checks every one).
  for (const [, name = ''] of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    if (!seen.has(name)) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  return parameters;
}

/**
 * The headers a response a route declares carries on this API. On the public API the limit is
 * counted before the handler runs, so all of them have the limit headers (the refusals of
 * authentication and the plan check, which come first, are the shared responses without them).
 */
function commonHeaders(audience: Audience): Record<string, JsonSchema> {
  const headers: Record<string, JsonSchema> = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (audience !== 'admin') {
    headers['RateLimit-Policy'] = headerRef('RateLimit-Policy');
    headers['RateLimit'] = headerRef('RateLimit');
  }
  return headers;
}

const errorContent = { 'application/json': { schema: { $ref: `${SCHEMAS}Error` } } };
const responseRef = (name: keyof typeof RESPONSE_COMPONENTS) => ({ $ref: `#/components/responses/${name}` });

function operationOf(route: MountableRoute, audience: Audience): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [statusText, spec] of Object.entries(route.responses)) {
    const status = Number(statusText);
    const headers = commonHeaders(audience);
    for (const [name, description] of Object.entries(spec.headers ?? {})) {
      headers[name] = name in HEADER_COMPONENTS ? headerRef(name) : { description, schema: { type: 'string' } };
    }
    // An error status without a schema of its own has SPEC's error body.
    const schema =
      spec.schema !== undefined
        ? toJsonSchema(spec.schema, 'output')
        : status >= 400
          ? { $ref: `${SCHEMAS}Error` }
          : undefined;
    const content = schema === undefined ? undefined : { 'application/json': { schema } };
    let description = spec.description;
    // A route's own 404 or 403 shares its status with the mount's: say both.
    if (status === 404 && audience === 'admin' && route.scope === 'shop') {
      description += '; or `{ "error": "Shop not found" }` for an unknown shop';
    }
    if (status === 403 && audience === 'public') {
      description += '; or `{ "error": "API access requires the Scale plan" }` (no limit headers then)';
    }
    responses[statusText] = { description, ...(content ? { content } : {}), headers };
  }
  if ((route.params || route.query || route.body) && responses['400'] === undefined) {
    responses['400'] = responseRef(audience === 'public' ? 'BadRequest' : 'AdminBadRequest');
  }
  if (audience === 'app') {
    responses['401'] ??= { description: 'No live session: no valid session token and no live session cookie', content: errorContent };
    responses['403'] ??= {
      description: 'A state-changing request of a cookie session without its `X-CSRF-Token`, or from another site',
      content: errorContent,
    };
    if (route.scope === 'shop' && route.rateLimit) responses['429'] ??= responseRef('RateLimited');
  } else if (audience === 'public') {
    responses['401'] ??= responseRef('Unauthorized');
    responses['403'] ??= responseRef('PlanRequired');
    responses['429'] ??= responseRef('RateLimited');
  } else {
    responses['401'] ??= responseRef('AdminUnauthorized');
    if (route.scope === 'shop') responses['404'] ??= responseRef('ShopNotFound');
  }
  const policy = audience !== 'admin' && route.scope === 'shop' && route.rateLimit ? RATE_LIMIT_POLICIES[route.rateLimit] : undefined;
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(policy ? { 'x-rate-limit': { policy: policy.name, limit: policy.limit, windowSeconds: policy.windowMs / 1000 } } : {}),
    parameters: parametersOf(route, audience),
    ...(route.body
      ? {
          requestBody: {
            required: route.bodyOptional !== true,
            content: { 'application/json': { schema: toJsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** Drops components nothing refers to (the linter rejects unused ones), until none is left. */
function pruneComponents(document: JsonSchema & { components: Record<string, Record<string, unknown>> }): void {
  for (let changed = true; changed; ) {
    changed = false;
    const text = JSON.stringify(document);
    for (const [kind, entries] of Object.entries(document.components)) {
      if (kind === 'securitySchemes') continue;
      for (const name of Object.keys(entries)) {
        if (!text.includes(`"#/components/${kind}/${name}"`)) {
          delete entries[name];
          changed = true;
        }
      }
    }
  }
}

function documentOf(spec: {
  title: string;
  description: string;
  security: { name: string; scheme: JsonSchema };
  operations: Array<{ path: string; route: MountableRoute; audience: Audience }>;
}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags = new Set<string>();
  for (const { path, route, audience } of spec.operations) {
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route, audience);
    tags.add(route.tag);
  }
  const document = {
    openapi: '3.1.0',
    // No `jsonSchemaDialect`: the default, OpenAPI 3.1's base dialect, is JSON Schema 2020-12 (what
    // Zod writes) with OpenAPI's keywords, and viewers such as Swagger UI support only that one.
    info: {
      title: spec.title,
      version: '1.0.0',
      description: spec.description,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This service' }],
    security: [{ [spec.security.name]: [] }],
    tags: [...tags].map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      securitySchemes: { [spec.security.name]: spec.security.scheme },
      schemas: {
        Error: toJsonSchema(errorBodySchema, 'output'),
        ConditionTrace: buildConditionTraceJsonSchema(`${SCHEMAS}ConditionTrace`),
        // Built here, not at import: this module is loaded at every start (errorWith), the
        // documents only at their first request (openapi-routes.ts).
        ...buildConditionNodeJsonSchema(SCHEMAS).$defs,
      } as Record<string, unknown>,
      parameters: {
        ShopId: { name: 'shopId', in: 'path', required: true, description: 'The shop (`shp_…`)', schema: { type: 'string' } },
      } as Record<string, unknown>,
      headers: { ...HEADER_COMPONENTS } as Record<string, unknown>,
      responses: { ...RESPONSE_COMPONENTS } as Record<string, unknown>,
    },
  };
  pruneComponents(document);
  return document;
}

/**
 * Builds the document of the public API: the routes mounted under `/api/v1`.
 *
 * @example
 *   const doc = buildOpenApiDocument(publicShopRoutes(ctx)); // doc.openapi === '3.1.0'
 */
export function buildOpenApiDocument(routes: readonly ShopRoute[]): JsonSchema {
  return documentOf({
    title: 'Gift Campaign Rewards Service API',
    description:
      'Public REST API for headless storefronts and integrations. Every response carries `X-Request-Id`; ' +
      'rate-limited responses carry `RateLimit-Policy` and `RateLimit` (IETF httpapi draft).',
    security: { name: 'apiKey', scheme: { type: 'http', scheme: 'bearer', description: 'An API key of a Scale-plan shop' } },
    operations: routes.map((route) => ({ path: `/api/v1${openApiPath(route.path)}`, route, audience: 'public' as const })),
  });
}

/**
 * Builds the document of the admin API: its own routes, and the public routes as mounted under
 * `/admin/v1/shops/{shopId}` (any plan, no rate limit, the admin token).
 *
 * @example
 *   const doc = buildAdminOpenApiDocument(publicShopRoutes(ctx), adminOnlyRoutes(ctx));
 */
export function buildAdminOpenApiDocument(publicRoutes: readonly ShopRoute[], adminRoutes: readonly MountableRoute[]): JsonSchema {
  const pathOf = (route: MountableRoute) =>
    `/admin/v1${route.scope === 'shop' ? '/shops/{shopId}' : ''}${openApiPath(route.path)}`;
  return documentOf({
    title: 'Gift Campaign Rewards Service admin API',
    description:
      "The operator's API: shops, API keys, catalog, webhooks, orders, experiments and the simulator, plus every " +
      'public route on the shop mount `/admin/v1/shops/{shopId}` (any plan, not rate limited). Every response ' +
      'carries `X-Request-Id`.',
    security: {
      name: 'adminToken',
      scheme: { type: 'http', scheme: 'bearer', description: "The operator's ADMIN_TOKEN" },
    },
    operations: [...adminRoutes, ...publicRoutes].map((route) => ({ path: pathOf(route), route, audience: 'admin' as const })),
  });
}

/**
 * Builds the document of the merchant admin app's mount (`/app/api/v1`, docs/merchant-admin.md):
 * the routes a shop's administrator may use, found by session. The app's API types are
 * generated from it.
 *
 * @example
 *   const doc = buildAppOpenApiDocument(merchantRoutes(ctx, tables));
 */
export function buildAppOpenApiDocument(routes: readonly MountableRoute[]): JsonSchema {
  return documentOf({
    title: 'Gift Campaign Rewards Service merchant admin API',
    description:
      "The merchant admin app's calls: the same handlers as the public and admin APIs, for the shop of the session " +
      '(the platform\'s session token as a Bearer token, or the login-link session cookie with `X-CSRF-Token` on ' +
      'state-changing requests). Rate limited per shop. Every response carries `X-Request-Id`.',
    security: {
      name: 'sessionToken',
      scheme: { type: 'http', scheme: 'bearer', description: "The platform's session token (JWT); a browser session uses its cookie instead" },
    },
    operations: routes.map((route) => ({ path: `/app/api/v1${openApiPath(route.path)}`, route, audience: 'app' as const })),
  });
}
