/**
 * The OpenAPI 3.1 document of the public API, generated from the very Zod schemas the routes
 * validate with (STYLE "Schemas are the single source of truth"): it cannot drift from them.
 */
import { buildConditionNodeJsonSchema, conditionNodeSchema } from '@gcrs/engine';
import { z } from 'zod';
import { RATE_LIMIT_POLICIES } from '../rate-limit/policies.ts';
import type { ShopRoute } from './shop-routes.ts';

type JsonSchema = Record<string, unknown>;

const errorBodySchema = z
  .object({
    error: z.string(),
    issue: z.string().optional(),
    path: z.array(z.union([z.string(), z.int()])).optional(),
  })
  .meta({ description: 'SPEC "Errors": every error has `error`; validation errors add `issue` and `path`.' });

const conditionDefs = buildConditionNodeJsonSchema('#/components/schemas/');

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...body } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      // The condition tree validates iteratively (any depth); document it as the recursive schema.
      if (ctx.zodSchema === (conditionNodeSchema as unknown)) {
        for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
        ctx.jsonSchema.$ref = conditionDefs.$ref;
      }
    },
  });
  return body;
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parametersOf(route: ShopRoute): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = toJsonSchema(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      parameters.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof property.description === 'string' ? { description: property.description } : {}),
        schema: property,
      });
    }
  }
  return parameters;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operationOf(route: ShopRoute): JsonSchema {
  const policy = RATE_LIMIT_POLICIES[route.rateLimit];
  const responses: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const headers = Object.fromEntries(
      Object.entries(spec.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
    );
    // An error status without a schema of its own has SPEC's error body.
    const schema =
      spec.schema !== undefined
        ? toJsonSchema(spec.schema, 'output')
        : Number(status) >= 400
          ? { $ref: '#/components/schemas/Error' }
          : undefined;
    const content = schema === undefined ? undefined : { 'application/json': { schema } };
    responses[status] = { description: spec.description, ...(content ? { content } : {}), ...(spec.headers ? { headers } : {}) };
  }
  responses['401'] ??= errorResponse('Missing or invalid API key: `{ "error": "Unauthorized" }`');
  responses['403'] ??= errorResponse('The shop\'s plan lacks API access: `{ "error": "API access requires the Scale plan" }`');
  responses['429'] ??= {
    ...errorResponse('Rate limit exceeded; `Retry-After` says when a slot frees'),
    headers: { 'Retry-After': { description: 'Seconds until a request is allowed again', schema: { type: 'integer' } } },
  };
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    'x-rate-limit': { policy: policy.name, limit: policy.limit, windowSeconds: policy.windowMs / 1000 },
    parameters: parametersOf(route),
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(route.body, 'input') } } } }
      : {}),
    responses,
  };
}

/**
 * An operation of the admin API for the document (the admin routes are not shop routes, so
 * they are described here from their schemas; they use the admin token, not an API key).
 *
 * @example
 *   adminOperation({ operationId: 'simulate', summary: 'Simulate', body: simulateBodySchema, response: evaluationResponseSchema });
 */
export function adminOperation(spec: {
  operationId: string;
  summary: string;
  description?: string;
  body: z.ZodType;
  response: z.ZodType;
}): JsonSchema {
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: ['Admin'],
    security: [{ adminToken: [] }],
    parameters: [{ name: 'shopId', in: 'path', required: true, schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(spec.body, 'input') } } },
    responses: {
      '200': { description: 'OK', content: { 'application/json': { schema: toJsonSchema(spec.response, 'output') } } },
      '400': errorResponse('Invalid body (`issue` and `path` name the first bad field)'),
      '401': errorResponse('Missing or wrong admin token'),
      '404': errorResponse('Unknown shop or campaign'),
    },
  };
}

/**
 * Builds the document for routes mounted under `/api/v1`.
 *
 * @example
 *   const doc = buildOpenApiDocument(publicShopRoutes(ctx)); // doc.openapi === '3.1.0'
 */
export function buildOpenApiDocument(routes: readonly ShopRoute[], extraPaths: Record<string, JsonSchema> = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = `/api/v1${openApiPath(route.path)}`;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Gift Campaign Rewards Service API',
      version: '1.0.0',
      description:
        'Public REST API for headless storefronts and integrations. Every response carries `X-Request-Id`; ' +
        'rate-limited responses carry `RateLimit-Policy` and `RateLimit` (IETF httpapi draft).',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    paths: { ...paths, ...extraPaths },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key of a Scale-plan shop' },
        adminToken: { type: 'http', scheme: 'bearer', description: "The operator's ADMIN_TOKEN (admin API only)" },
      },
      schemas: { Error: toJsonSchema(errorBodySchema, 'output'), ...conditionDefs.$defs },
    },
  };
}
