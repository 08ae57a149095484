/**
 * The stand-in platform's Admin side (CONTRACT part three): one local HTTP server that plays the
 * platform for the service's `PLATFORM_ADMIN_API_URL`, used by the tests and by local development.
 * It serves the Admin GraphQL API at `/admin/api/<version>/graphql.json`, telling shops apart by
 * their offline access token (`X-Shopify-Access-Token`), and whatever plain HTTP routes its
 * parts add (the token exchange, a billing confirmation page).
 *
 * The operations live in families, one module per area (install, catalog, discounts, billing,
 * order editing), each answering the root fields it owns with the platform's documented shapes.
 * This module only routes: it parses the document, finds the family of every root field and
 * merges their answers; a root field no family owns is answered as the platform answers an
 * unknown field (200 with an `errors` array).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kind, parse } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import { MAX_QUERY_COST, requestedCost } from './cost.ts';

/** A shop as the stand-in platform knows it. */
export type StandinShop = {
  /** `example.myshopify.com`. */
  domain: string;
  name: string;
  currencyCode: string;
  ianaTimezone: string;
  /** The offline access tokens issued to the app for this shop; a revoked token is removed. */
  accessTokens: Set<string>;
};

export type GraphqlError = { message: string; extensions?: Record<string, unknown>; path?: Array<string | number> };

/** What the platform answers to one GraphQL request. */
export type GraphqlAnswer = {
  /** 200 unless said (429 with `Retry-After` for throttling, 5xx for an outage). */
  status?: number;
  headers?: Record<string, string>;
  data?: Record<string, unknown>;
  errors?: GraphqlError[];
};

/** One GraphQL request of the service, after the shop was found by its token. */
export type GraphqlCall = {
  shop: StandinShop;
  /** The API version of the path, e.g. `2025-10`. */
  apiVersion: string;
  query: string;
  variables: Record<string, unknown>;
  operation: OperationDefinitionNode;
  /** The root fields of the operation that this family owns, by response key (alias or name). */
  rootFields: Array<{ key: string; name: string }>;
};

/** The operations of one area of the Admin API. */
export type OperationFamily = {
  /** The root fields (query or mutation) this family answers. */
  rootFields: readonly string[];
  answer(call: GraphqlCall): GraphqlAnswer | Promise<GraphqlAnswer>;
};

/** A plain HTTP route of the stand-in (the token exchange, a confirmation page). */
export type StandinRoute = {
  method: 'GET' | 'POST';
  /** The request's path without its query. */
  path: string;
  handle(request: IncomingMessage, body: Buffer, response: ServerResponse): void | Promise<void>;
};

/** A GraphQL request as the stand-in saw it, and what it answered (status and JSON body). */
export type RecordedRequest = {
  path: string;
  token: string;
  query: string;
  variables: Record<string, unknown>;
  answer?: { status: number; body: unknown };
};

export type StandinPlatform = {
  url: string;
  shops: Map<string, StandinShop>;
  /** Every GraphQL request, in order. */
  requests: RecordedRequest[];
  /** Adds a shop (by domain) with the platform's defaults for what is not given. */
  addShop(shop: Partial<StandinShop> & { domain: string }): StandinShop;
  /** The shop that holds this access token. */
  shopByToken(token: string): StandinShop | undefined;
  close(): Promise<void>;
};

export type StandinOptions = { families: readonly OperationFamily[]; routes?: readonly StandinRoute[]; port?: number; host?: string };

const GRAPHQL_PATH = /^\/admin\/api\/([0-9]{4}-[0-9]{2}|unstable)\/graphql\.json$/;
/** The platform's answer to a missing or unknown access token. */
const INVALID_TOKEN = '[API] Invalid API key or access token (unrecognized login or wrong password)';

function sendJson(response: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(payload));
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function operationOf(query: string, operationName: string | undefined): OperationDefinitionNode | undefined {
  const operations = parse(query).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName === undefined ? operations[0] : operations.find((o) => o.name?.value === operationName);
}

/** @example const platform = await startStandinPlatform({ families: [catalogOperations(state)] }); */
export async function startStandinPlatform(options: StandinOptions): Promise<StandinPlatform> {
  const shops = new Map<string, StandinShop>();
  const requests: RecordedRequest[] = [];
  const owner = new Map<string, OperationFamily>();
  for (const family of options.families) for (const field of family.rootFields) owner.set(field, family);
  const shopByToken = (token: string) => [...shops.values()].find((shop) => shop.accessTokens.has(token));

  async function graphql(path: string, apiVersion: string, request: IncomingMessage, body: Buffer, response: ServerResponse): Promise<void> {
    const token = String(request.headers['x-shopify-access-token'] ?? '');
    let payload: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      payload = JSON.parse(body.toString('utf8') || '{}') as typeof payload;
    } catch {
      return sendJson(response, 400, { errors: 'Invalid JSON in request body' });
    }
    const query = typeof payload.query === 'string' ? payload.query : '';
    const variables = (payload.variables ?? {}) as Record<string, unknown>;
    const record: RecordedRequest = { path, token, query, variables };
    requests.push(record);
    const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.answer = { status, body };
      sendJson(res, status, body, headers);
    };
    const shop = shopByToken(token);
    if (shop === undefined) return send(response, 401, { errors: INVALID_TOKEN });
    let operation: OperationDefinitionNode | undefined;
    try {
      operation = operationOf(query, typeof payload.operationName === 'string' ? payload.operationName : undefined);
    } catch (error) {
      return send(response, 200, { errors: [{ message: (error as Error).message }] });
    }
    if (operation === undefined) return send(response, 200, { errors: [{ message: 'No operation given' }] });
    const cost = requestedCost(operation, variables);
    if (cost > MAX_QUERY_COST) {
      const message = `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`;
      return send(response, 200, { errors: [{ message, extensions: { code: 'MAX_COST_EXCEEDED', cost, maxCost: MAX_QUERY_COST } }] });
    }
    const byFamily = new Map<OperationFamily, GraphqlCall['rootFields']>();
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) continue;
      const name = selection.name.value;
      const family = owner.get(name);
      const root = operation.operation === 'mutation' ? 'Mutation' : 'QueryRoot';
      if (family === undefined) return send(response, 200, { errors: [{ message: `Field '${name}' doesn't exist on type '${root}'` }] });
      byFamily.set(family, [...(byFamily.get(family) ?? []), { key: selection.alias?.value ?? name, name }]);
    }
    const data: Record<string, unknown> = {};
    const errors: GraphqlError[] = [];
    for (const [family, rootFields] of byFamily) {
      const answer = await family.answer({ shop, apiVersion, query, variables, operation, rootFields });
      if (answer.status !== undefined && answer.status !== 200) return send(response, answer.status, { errors: answer.errors ?? [] }, answer.headers);
      Object.assign(data, answer.data);
      errors.push(...(answer.errors ?? []));
    }
    // An answer of errors alone has no data (the platform's shape for a failed operation).
    send(response, 200, errors.length === 0 ? { data } : Object.keys(data).length === 0 ? { errors } : { data, errors });
  }

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    readBody(request)
      .then(async (body) => {
        const version = GRAPHQL_PATH.exec(path)?.[1];
        if (version !== undefined && request.method === 'POST') return graphql(path, version, request, body, response);
        const route = options.routes?.find((r) => r.method === request.method && r.path === path);
        if (route === undefined) return sendJson(response, 404, { errors: 'Not Found' });
        return route.handle(request, body, response);
      })
      .catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { errors: (error as Error).message });
      });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    shops,
    requests,
    addShop(shop) {
      const full: StandinShop = { name: shop.domain.split('.')[0] ?? shop.domain, currencyCode: 'USD', ianaTimezone: 'UTC', accessTokens: new Set(), ...shop };
      shops.set(full.domain, full);
      return full;
    },
    shopByToken,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
