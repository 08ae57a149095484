/**
 * The invalidation bus over Redis pub/sub (REDIS_URL). A subscribed Redis connection can do
 * nothing else, so the bus opens its own duplicate of the shared client for listening and
 * publishes on the shared one.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { watchRedis } from '../redis/connection.ts';
import { createListenerRegistry, decodeMessage, encodeMessage } from './invalidation-bus.ts';
import type { InvalidationBus } from './invalidation-bus.ts';

export const REDIS_INVALIDATION_CHANNEL = 'gcrs:invalidate';

/**
 * A bus on `redis`; ioredis reconnects and resubscribes by itself.
 *
 * @example
 *   const bus = createRedisInvalidationBus(ctx.redis, ctx.logger);
 */
export function createRedisInvalidationBus(redis: Redis, logger: Logger): InvalidationBus {
  const listeners = createListenerRegistry();
  // The subscriber queues its SUBSCRIBE until connected and has no command timeout: it must
  // subscribe whenever Redis comes (back), while the shared client fails fast instead. Nor is
  // its queue flushed while it reconnects: ioredis sends the SUBSCRIBE of a reconnect itself,
  // with nobody to catch its rejection, so a connection killed again before Redis answered it
  // (a failover, a proxy) made an unhandled rejection that ends the process.
  const subscriber = redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined, maxRetriesPerRequest: null });
  let readyOnce = false;

  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== REDIS_INVALIDATION_CHANNEL) return;
    const message = decodeMessage(text);
    if (message) listeners.deliver(message.topic, message.key);
  });
  // ioredis emits 'ready' again after each reconnect: what was published meanwhile is lost.
  subscriber.on('ready', () => {
    if (readyOnce) listeners.deliverEverything();
    readyOnce = true;
  });
  watchRedis(subscriber, logger, 'invalidation subscriber');
  subscriber.subscribe(REDIS_INVALIDATION_CHANNEL).catch((error: unknown) => {
    logger.error({ err: error }, 'invalidation subscribe failed');
  });

  return {
    kind: 'redis',
    publish(topic, key) {
      redis.publish(REDIS_INVALIDATION_CHANNEL, encodeMessage(topic, key)).catch((error: unknown) => {
        logger.warn({ err: error, topic, key }, 'invalidation publish failed');
      });
    },
    subscribe: (topic, listener) => listeners.add(topic, listener),
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
