/**
 * The reusable parts of the OpenAPI documents: response headers, the responses every route
 * shares (401, 403, 429, …) and the tags' descriptions. Header texts quote what the service sends.
 */
import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';

export type JsonSchema = Record<string, unknown>;

// Errors with fields of their own document them through `errorWith` below.
export const errorBodySchema = z
  .object({
    error: z.string(),
    code: z.enum(ERROR_CODES).meta({ description: 'Stable machine-readable kind of error; `error` is for people' }),
    requestId: z.string().meta({ description: 'The `X-Request-Id` of the request, to quote when reporting it' }),
    issue: z.string().optional(),
    path: z.array(z.union([z.string(), z.int()])).optional(),
  })
  .meta({
    description:
      'SPEC "Errors": every error has `error`, `code` and `requestId`; validation errors add `issue` and `path`.',
  });

/** An error body with fields of its own beside SPEC's (e.g. a 409's `status`), for a response `schema`. */
export const errorWith = (extra: z.ZodRawShape) => errorBodySchema.extend(extra);


/** A reference to the header component of that name. */
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** Keyed by the header's own name, so a route's declared header finds its component. */
export const HEADER_COMPONENTS: Record<string, JsonSchema> = {
  'X-Request-Id': {
    description: 'Unique id of this request (`req_…`), on every response; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'The key\'s quota for this route\'s row, e.g. `"default";q=120;w=60` (IETF httpapi ratelimit-headers draft).',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of it: `"default";r=<remaining>;t=<seconds until the window is empty>`.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds until a request is allowed again (a slot of the window frees).', schema: { type: 'integer' } },
  ETag: { description: 'Strong validator of the body; send it back in `If-None-Match` to get 304.', schema: { type: 'string' } },
  'Cache-Control': { description: '`private, max-age=60`', schema: { type: 'string' } },
};

const requestId = { 'X-Request-Id': headerRef('X-Request-Id') };

export const RESPONSE_COMPONENTS: Record<string, JsonSchema> = {
  BadRequest: {
    description: 'Invalid path parameters, query or body: `{ error, issue, path }` names the first bad field',
    content: errorContent,
    headers: { ...requestId, 'RateLimit-Policy': headerRef('RateLimit-Policy'), RateLimit: headerRef('RateLimit') },
  },
  Unauthorized: { description: 'Missing or invalid API key: `{ "error": "Unauthorized" }`', content: errorContent, headers: requestId },
  PlanRequired: {
    description: 'The shop\'s plan lacks API access: `{ "error": "API access requires the Scale plan" }`',
    content: errorContent,
    headers: requestId,
  },
  RateLimited: {
    description: 'Rate limit exceeded: `{ "error": "Rate limit exceeded" }`; `Retry-After` says when a slot frees',
    content: errorContent,
    headers: {
      ...requestId,
      'RateLimit-Policy': headerRef('RateLimit-Policy'),
      RateLimit: headerRef('RateLimit'),
      'Retry-After': headerRef('Retry-After'),
    },
  },
  AdminUnauthorized: { description: 'Missing or wrong admin token: `{ "error": "Unauthorized" }`', content: errorContent, headers: requestId },
  AdminBadRequest: {
    description: 'Invalid path parameters, query or body: `{ error, issue, path }` names the first bad field',
    content: errorContent,
    headers: requestId,
  },
  ShopNotFound: { description: 'Unknown shop: `{ "error": "Shop not found" }`', content: errorContent, headers: requestId },
};

/** Every tag a route may carry, with the description the linter asks for. */
export const TAGS: Record<string, string> = {
  Campaigns: 'Gift campaigns and their rules: create, import, edit, enable, disable, schedule.',
  Rules: 'The active rules payload storefronts evaluate, with conditional GET.',
  Evaluation: 'Server-side evaluation of a cart context against the live rules.',
  Widgets: 'Storefront widget settings.',
  Redemptions: 'Gift redemptions recorded from orders.',
  Events: 'Storefront events for analytics.',
  Analytics: 'Campaign and experiment analytics.',
  Shops: 'Shops, their plans, cap overrides and settings (admin).',
  'API keys': 'API keys of a shop (admin).',
  Catalog: 'Products and collections the rules and health checks read (admin).',
  Webhooks: 'Outbound webhook endpoints and the delivery log (admin).',
  Orders: 'Platform orders, recorded for redemptions and analytics (admin).',
  Experiments: 'A/B experiments between rules of a campaign (admin).',
  Simulation: 'Evaluate drafts or inline campaigns before they go live (admin).',
  Checkout: 'The checkout discount function\'s configuration, as the discount sync writes it (admin).',
  'Platform connection': 'A shop\'s offline Admin API access token for the discount sync; never shown (admin).',
  Billing: "Plans through the platform's billing: prices and app subscriptions (docs/billing.md).",
  'Sign-in': "The merchant admin's session and one-time login links (docs/merchant-admin.md).",
  Compliance: "Customers' data requests received from the platform, with their exports (docs/compliance.md).",
};
