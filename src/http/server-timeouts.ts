/**
 * The Node server's limits on slow clients (docs/operations.md "Timeouts").
 *
 * Why: Fastify turns Node's `requestTimeout` off (0) by default, and Node looks for overdue
 * requests only every 30 s, so a client that sends headers and part of a body and then stalls
 * held its socket (and a parser, and a slot in every proxy in front) for minutes: 1,000 such
 * clients were still connected after 130 s. Here every phase has a bound:
 * - `headersTimeout`: the whole header block within this many ms of the first byte;
 * - `requestTimeout`: the whole request, body included; past it Node answers 408 and closes;
 * - `connectionTimeout`: a socket with no traffic at all for this long is destroyed;
 * - `keepAliveTimeout`: how long an idle keep-alive socket waits for its next request.
 * Invariant: headersTimeout <= requestTimeout (config.ts checks it; Node refuses otherwise).
 */
import type { ServerOptions } from 'node:http';

export type ServerTimeouts = {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
};

/**
 * Fastify options for the timeouts of `config`, to spread into `Fastify({ … })`.
 *
 * @example
 *   Fastify({ ...serverTimeouts(config), bodyLimit: config.bodyLimitBytes });
 */
export function serverTimeouts(
  config: { requestTimeoutMs: number; headersTimeoutMs: number; connectionTimeoutMs: number; keepAliveTimeoutMs: number },
): ServerTimeouts {
  // Node enforces headers and request timeouts on a sweep; at its default of 30 s a 10 s
  // bound would really be 40 s. A sweep every second (or twice per headers bound, if shorter)
  // costs one pass over the open sockets.
  const connectionsCheckingInterval = Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 2)));
  return {
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval },
  };
}
