/**
 * The invalidation bus over Redis pub/sub (REDIS_URL or REDIS_CLUSTER_NODES). A subscribed
 * Redis connection can do nothing else, so the bus opens its own duplicate of the shared client
 * for listening and publishes on the shared one.
 *
 * On a Redis Cluster it uses classic pub/sub (SUBSCRIBE/PUBLISH), not sharded pub/sub
 * (SSUBSCRIBE/SPUBLISH, Redis 7): a PUBLISH on any node reaches the subscribers of every node,
 * so the bus works on every cluster version an operator may run, and ioredis keeps one
 * subscription per cluster and moves it to another node when its node goes. Sharded pub/sub
 * would send our one channel to one shard anyway; what it saves, the cluster bus forwarding each
 * message to every node, is one small message per write here (docs/operations.md "Redis Cluster").
 */
import type { Logger } from 'pino';
import { isCluster, watchRedis } from '../redis/connection.ts';
import type { RedisClient } from '../redis/connection.ts';
import { createListenerRegistry, decodeMessage, encodeMessage } from './invalidation-bus.ts';
import type { InvalidationBus } from './invalidation-bus.ts';

export const REDIS_INVALIDATION_CHANNEL = 'gcrs:invalidate';

/**
 * The subscriber queues its SUBSCRIBE until connected and has no command timeout: it must
 * subscribe whenever Redis comes (back), while the shared client fails fast instead. Nor is its
 * queue flushed while it reconnects: ioredis sends the SUBSCRIBE of a reconnect itself, with
 * nobody to catch its rejection, so a connection killed again before Redis answered it (a
 * failover, a proxy) made an unhandled rejection that ends the process.
 */
function subscriberOf(redis: RedisClient): RedisClient {
  const patient = { commandTimeout: undefined, maxRetriesPerRequest: null };
  if (!isCluster(redis)) return redis.duplicate({ enableOfflineQueue: true, ...patient });
  return redis.duplicate([], { enableOfflineQueue: true, redisOptions: { ...redis.options.redisOptions, ...patient } });
}

/**
 * A bus on `redis`; ioredis reconnects and resubscribes by itself.
 *
 * @example
 *   const bus = createRedisInvalidationBus(ctx.redis, ctx.logger);
 */
export function createRedisInvalidationBus(redis: RedisClient, logger: Logger): InvalidationBus {
  const listeners = createListenerRegistry();
  const subscriber = subscriberOf(redis);
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
  // A cluster moves its subscription to another node when the node it was on leaves, without a
  // new 'ready': what was published in between is lost too.
  if (isCluster(subscriber)) subscriber.on('-node', () => listeners.deliverEverything());
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
      // Not QUIT: with nothing to flush on a subscriber, and a QUIT sent while Redis is away
      // would wait in the queue (never flushed, above) for a Redis that may never come.
      subscriber.disconnect();
    },
  };
}
