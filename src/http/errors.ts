/**
 * The one error module: a closed set of codes, one code → status table, and one handler that
 * writes every error body as SPEC "Errors" says: `{ error, issue?, path? }` with Zod's path array,
 * plus `code` (an ErrorCode, stable for machines) and `requestId` (the `X-Request-Id`).
 * Handlers throw ApiError (through the constructors below); they never build error JSON by hand.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { storageRefusalIssue } from './storage-errors.ts';
import { isConnectionLoss } from '../db/connection-loss.ts';

const STATUS = {
  bad_request: 400,
  validation: 400,
  unauthorized: 401,
  plan_required: 403,
  plan_limit: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  health_warnings: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS;
export type ErrorPath = Array<string | number>;
export type ErrorBody = { error: string; issue?: string; path?: ErrorPath; [extra: string]: unknown };

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, body: ErrorBody, headers: Record<string, string> = {}) {
    super(body.error);
    this.code = code;
    this.status = STATUS[code];
    this.body = body;
    this.headers = headers;
  }
}

/** The router's limit on one path parameter (Fastify's default, stated so the 414 can name it). */
export const MAX_PATH_PARAM_CHARS = 100;

/** Every ErrorCode, for the OpenAPI `Error` schema. */
export const ERROR_CODES = Object.keys(STATUS) as [ErrorCode, ...ErrorCode[]];

export const unauthorized = (issue?: string) =>
  new ApiError('unauthorized', issue === undefined ? { error: 'Unauthorized' } : { error: 'Unauthorized', issue });
/** A valid credential used from where it may not be (a storefront token from an origin it does not allow). */
export const forbidden = (error: string, issue?: string) =>
  new ApiError('forbidden', issue === undefined ? { error } : { error, issue });
export const planRequired = () => new ApiError('plan_required', { error: 'API access requires the Scale plan' });
/** `what` names the resource as the error text does: notFound('Campaign') → "Campaign not found". */
export const notFound = (what = 'Resource') => new ApiError('not_found', { error: `${what} not found` });
export const badRequest = (error: string, issue?: string) =>
  new ApiError('bad_request', issue === undefined ? { error } : { error, issue });
export const conflict = (error: string, extra: Record<string, unknown> = {}) =>
  new ApiError('conflict', { error, ...extra });
export const methodNotAllowed = (allow: readonly string[]) =>
  new ApiError('method_not_allowed', { error: 'Method not allowed' }, { Allow: allow.join(', ') });
export const rateLimited = (headers: Record<string, string>) =>
  new ApiError('rate_limited', { error: 'Rate limit exceeded' }, headers);
export const unavailable = (error: string) => new ApiError('unavailable', { error });

/** A plan cap breach: `limit` names the cap, `max` its value for this shop. */
export const planLimit = (limit: 'campaigns' | 'rules' | 'activeCampaigns', max: number) =>
  new ApiError('plan_limit', {
    error: 'Plan limit exceeded',
    issue: `This change would exceed the shop's ${limit} limit of ${max}`,
    limit,
    max,
  });

/** A validation failure reported on the first Zod issue, with its path. */
export function validationError(error: string, zodError: z.core.$ZodError): ApiError {
  const first = zodError.issues[0];
  if (!first) return new ApiError('validation', { error });
  const path = first.path.map((key) => (typeof key === 'number' ? key : String(key)));
  return new ApiError('validation', { error, issue: first.message, path });
}

/**
 * Parses `value` with `schema` or throws the 400 of SPEC "Errors" naming the first bad field.
 *
 * @example
 *   const body = parseOr400(importBodySchema, request.body, 'Invalid request body');
 */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown, error: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(error, result.error);
  return result.data;
}

// Fastify's own client errors (body parsing, content types) mapped onto our codes.
function fromFastifyError(error: FastifyError, request: FastifyRequest): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      // The route's own limit when it has one (e.g. POST /evaluate), else the server's.
      const limit = request.routeOptions.bodyLimit;
      return new ApiError('payload_too_large', {
        error: 'Request body too large',
        ...(typeof limit === 'number' ? { issue: `The body limit of this route is ${limit} bytes` } : {}),
      });
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', { error: 'Unsupported content type; send application/json' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('bad_request', { error: 'Malformed JSON body', issue: 'The body is empty' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('bad_request', { error: 'Malformed JSON body', issue: error.message });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('uri_too_long', { error: 'Path parameter too long', issue: `A path parameter is longer than ${MAX_PATH_PARAM_CHARS} characters` });
    case 'FST_ERR_BAD_URL':
      return new ApiError('bad_request', { error: 'Malformed URL', issue: 'A path segment is not valid percent-encoded UTF-8' });
    default:
      break;
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new ApiError('bad_request', { error: 'Malformed JSON body', issue: error.message });
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('bad_request', { error: error.message });
  }
  return undefined;
}

// Input the database refused as data (see storage-errors.ts); no `path`: the store cannot say where.
function fromStorageError(error: unknown): ApiError | undefined {
  const issue = storageRefusalIssue(error);
  return issue === undefined ? undefined : new ApiError('validation', { error: 'Invalid input', issue });
}

/**
 * Fastify's error handler, also its `frameworkErrors` hook: every error response of the service
 * is written here, so every error body has `error`, `code` and `requestId`, and every error
 * response the `X-Request-Id` header (framework errors such as a bad URL skip the onRequest hook).
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error, request);
  if (apiError.status >= 500) request.log.error({ err: error }, apiError.code === 'internal' ? 'unhandled error' : 'request failed');
  reply.header('X-Request-Id', request.id);
  return reply.code(apiError.status).headers(apiError.headers).send(errorBody(apiError, request));
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const fromFastify = fromFastifyError(error, request);
  if (fromFastify) return fromFastify;
  // The database's connection failed, not the request: the caller may try again shortly.
  if (isConnectionLoss(error)) return new ApiError('unavailable', { error: 'Database unavailable' }, { 'Retry-After': '1' });
  const refused = fromStorageError(error);
  if (refused) {
    // The caller gets a 400, but a schema let this input through: worth a warning.
    request.log.warn({ err: error }, 'storage refused input');
    return refused;
  }
  return new ApiError('internal', { error: 'Internal server error' });
}

// `error` and `code` lead, `requestId` closes; a thrown body's own extras cannot override either.
function errorBody(apiError: ApiError, request: FastifyRequest): ErrorBody {
  const { error, code: _code, requestId: _requestId, ...extra } = apiError.body;
  return { error, code: apiError.code, ...extra, requestId: request.id };
}
