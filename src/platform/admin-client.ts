/**
 * The platform's Admin GraphQL client for one shop (the platform's official
 * `@shopify/admin-api-client`), and what its answers come to: data, or an error the outbox can
 * act on. PLATFORM_ADMIN_API_URL replaces `https://<shop domain>` in every URL (the stand-in
 * platform, dev/platform/).
 */
import { createAdminApiClient } from '@shopify/admin-api-client';
import { parseRetryAfter } from '../outbox/retry-schedule.ts';

export const ADMIN_API_VERSION = '2025-10';

export type PlatformCredentials = { storeDomain: string; accessToken: string };

export type AdminClientOptions = {
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Replaces `https://<shop domain>` in the Admin API URL (PLATFORM_ADMIN_API_URL): the stand-in. */
  adminApiUrl?: string;
};

/** The platform refused the shop's access token (HTTP 401): revoked, or the app uninstalled. */
export class PlatformUnauthorizedError extends Error {
  override name = 'PlatformUnauthorizedError';
}

/**
 * The platform answered, but not with what was asked: throttled (429, `retryAfterMs` from its
 * `Retry-After`), an outage (5xx), an `errors` array, or data missing what the document selects.
 * Retried on the outbox's schedule, never trusted.
 */
export class PlatformAnswerError extends Error {
  override name = 'PlatformAnswerError';
  readonly statusCode: number | null;
  readonly retryAfterMs: number | undefined;
  /** The `extensions.code` of each GraphQL error (`THROTTLED`, `ACCESS_DENIED` for a scope the app lacks, …). */
  readonly codes: readonly string[];
  constructor(message: string, statusCode: number | null, retryAfterMs?: number, codes: readonly string[] = []) {
    super(message);
    this.statusCode = statusCode;
    this.retryAfterMs = retryAfterMs;
    this.codes = codes;
  }
}

export type AdminClient = ReturnType<typeof createAdminApiClient>;

/** @example const client = adminClient({ storeDomain, accessToken }, { adminApiUrl }); */
export function adminClient(credentials: PlatformCredentials, options: AdminClientOptions): AdminClient {
  const fetchFn = options.fetch ?? fetch;
  const base = options.adminApiUrl;
  const customFetchApi =
    base === undefined ? options.fetch : (url: string, init?: RequestInit) => fetchFn(url.replace(/^https:\/\/[^/]+/, base), init);
  return createAdminApiClient({
    ...credentials,
    apiVersion: ADMIN_API_VERSION,
    ...(customFetchApi ? { customFetchApi } : {}),
    // The client warns on stderr about API versions it thinks old; the version is pinned on purpose.
    logger: () => undefined,
  });
}

type ClientErrors = { networkStatusCode?: number; message?: string; graphQLErrors?: unknown[]; response?: Response };

/** Throws for an answer that is not data: 401 → PlatformUnauthorizedError, anything else → PlatformAnswerError. */
export function assertAnswered(what: string, errors: ClientErrors | undefined): void {
  if (errors === undefined) return;
  const status = errors.networkStatusCode;
  if (status === 401) throw new PlatformUnauthorizedError(`${what}: the platform refused the access token (401)`);
  const retryAfterMs = parseRetryAfter(errors.response?.headers.get('retry-after'), new Date());
  const graphqlErrors = (errors.graphQLErrors ?? []) as Array<{ message?: string; extensions?: { code?: unknown } }>;
  const graphql = graphqlErrors.map((e) => e.message ?? String(e)).join('; ');
  const codes = graphqlErrors.flatMap((e) => (typeof e.extensions?.code === 'string' ? [e.extensions.code] : []));
  const detail = graphql === '' ? (errors.message ?? 'unknown error') : graphql;
  throw new PlatformAnswerError(`${what}: ${detail}${status === undefined ? '' : ` (HTTP ${status})`}`, status ?? null, retryAfterMs, codes);
}

/**
 * Sends `document` and returns its data as `parse` reads it (a Zod schema's `parse`); an answer
 * without data, with errors, or whose data `parse` refuses throws (see assertAnswered). `signal`
 * ends a request that takes too long (a merchant's screen waits on it): no answer, an error.
 *
 * @example const { shop } = await adminRequest(client, 'Reading the shop', SHOP_QUERY, {}, (d) => shopAnswer.parse(d));
 */
export async function adminRequest<T>(
  client: AdminClient,
  what: string,
  document: string,
  variables: Record<string, unknown>,
  parse: (data: unknown) => T,
  options: { signal?: AbortSignal } = {},
): Promise<T> {
  const answer = await client.request(document, { variables, ...(options.signal ? { signal: options.signal } : {}) });
  assertAnswered(what, answer.errors as ClientErrors | undefined);
  try {
    return parse(answer.data);
  } catch (error) {
    throw new PlatformAnswerError(`${what}: the platform's answer is not what the schema says (${error instanceof Error ? error.message.slice(0, 300) : String(error)})`, 200);
  }
}
