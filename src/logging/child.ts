/**
 * Per-request child loggers, only when something can be written. pino's `child()` serialises
 * its bindings at once; at two children per request (Fastify's request id, the API key's
 * shop) that was ~10% of GET /rules' CPU with LOG_LEVEL=silent, where nothing is ever
 * written. The level is set once from the configuration and never changed at run time.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/**
 * `logger.child(bindings)`, or `logger` itself when it is silent.
 *
 * @example
 *   request.log = childLogger(request.log, { shopId: shop.id });
 */
export function childLogger(logger: FastifyBaseLogger, bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
  return logger.level === 'silent' ? logger : logger.child(bindings, options);
}
