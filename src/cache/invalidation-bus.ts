/**
 * Cross-instance cache invalidation: "forget what you cached under this key" sent to every
 * instance of the service (this one included). Three transports share one interface: Redis
 * pub/sub when REDIS_URL is set, PostgreSQL LISTEN/NOTIFY on a PostgreSQL database, and an
 * in-process bus for the embedded database, which only one process can open.
 *
 * Delivery is best effort and asynchronous, so no cache may rely on a message for
 * correctness: caches check a version on read (see src/rules/rules-cache.ts) and use the
 * bus only to drop stale entries early. After a transport reconnects, messages sent during
 * the gap are lost; listeners then get the key `*` ("forget everything").
 */

/** The key a listener gets after a delivery gap: every entry of the topic may be stale. */
export const EVERY_KEY = '*';

export type InvalidationListener = (key: string) => void;

export type InvalidationBus = {
  readonly kind: 'memory' | 'redis' | 'postgres';
  /** Sends `key` of `topic` to every instance; never throws (failures are logged). */
  publish(topic: string, key: string): void;
  /** Calls `listener` for each key of `topic`; returns the unsubscribe function. */
  subscribe(topic: string, listener: InvalidationListener): () => void;
  close(): Promise<void>;
};

/** The wire format shared by the Redis and PostgreSQL transports. */
export const encodeMessage = (topic: string, key: string): string => JSON.stringify([topic, key]);

export function decodeMessage(text: string): { topic: string; key: string } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { topic: value[0], key: value[1] };
    }
  } catch {
    // A foreign message on our channel: ignored.
  }
  return undefined;
}

/** Listeners by topic; the transports own one each and feed it what arrives. */
export function createListenerRegistry() {
  const byTopic = new Map<string, Set<InvalidationListener>>();
  return {
    add(topic: string, listener: InvalidationListener): () => void {
      const set = byTopic.get(topic) ?? new Set<InvalidationListener>();
      set.add(listener);
      byTopic.set(topic, set);
      return () => {
        set.delete(listener);
      };
    },
    deliver(topic: string, key: string): void {
      for (const listener of byTopic.get(topic) ?? []) listener(key);
    },
    /** After a gap: every topic forgets everything. */
    deliverEverything(): void {
      for (const listeners of byTopic.values()) for (const listener of listeners) listener(EVERY_KEY);
    },
  };
}

/**
 * The bus of a single process (embedded database): delivery is immediate and in process.
 *
 * @example
 *   const bus = createMemoryInvalidationBus();
 *   bus.subscribe('rules', (shopId) => cache.delete(shopId));
 *   bus.publish('rules', 'shp_1');
 */
export function createMemoryInvalidationBus(): InvalidationBus {
  const listeners = createListenerRegistry();
  return {
    kind: 'memory',
    publish: (topic, key) => listeners.deliver(topic, key),
    subscribe: (topic, listener) => listeners.add(topic, listener),
    close: async () => {},
  };
}
