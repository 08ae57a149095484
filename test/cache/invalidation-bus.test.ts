/**
 * Each transport delivers a key to every bus on the same backend, its own included.
 * Redis and PostgreSQL run in the postgres project (TEST_REDIS_URL / TEST_DATABASE_URL).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryInvalidationBus, EVERY_KEY } from '../../src/cache/invalidation-bus.ts';
import type { InvalidationBus } from '../../src/cache/invalidation-bus.ts';
import { createPostgresInvalidationBus } from '../../src/cache/postgres-bus.ts';
import { createRedisInvalidationBus } from '../../src/cache/redis-bus.ts';
import { openPostgres } from '../../src/db/database.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { createTestDatabase, testDbKind, testRedisUrl } from '../support/database.ts';

const logger = pino({ level: 'silent' });

/** Resolves with the first `count` keys the bus delivers on `topic`. */
function collect(bus: InvalidationBus, topic: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const keys: string[] = [];
    const timer = setTimeout(() => reject(new Error(`only got ${JSON.stringify(keys)}`)), 5000);
    const unsubscribe = bus.subscribe(topic, (key) => {
      keys.push(key);
      if (keys.length === count) {
        clearTimeout(timer);
        unsubscribe();
        resolve(keys);
      }
    });
  });
}

/**
 * Two buses on one backend: a key published on one reaches both, topics stay apart. The topics
 * are this call's own: the Redis is shared with test files running alongside, whose apps
 * publish real `rules` invalidations on the same channel.
 */
async function expectFanOut(a: InvalidationBus, b: InvalidationBus) {
  const rules = `rules-${randomUUID()}`;
  const otherTopic = `other-${randomUUID()}`;
  const onA = collect(a, rules, 2);
  const onB = collect(b, rules, 2);
  const other = collect(b, otherTopic, 1);
  a.publish(rules, 'shp_1');
  b.publish(otherTopic, 'x');
  b.publish(rules, 'shp_2');
  expect((await onA).sort()).toEqual(['shp_1', 'shp_2']);
  expect((await onB).sort()).toEqual(['shp_1', 'shp_2']);
  expect(await other).toEqual(['x']);
}

describe('memory bus', () => {
  it('delivers to its own listeners at once, and stops after unsubscribe', () => {
    const bus = createMemoryInvalidationBus();
    const seen: string[] = [];
    const unsubscribe = bus.subscribe('rules', (key) => seen.push(key));
    bus.publish('rules', 'shp_1');
    bus.publish('other', 'shp_2');
    unsubscribe();
    bus.publish('rules', 'shp_3');
    expect(seen).toEqual(['shp_1']);
  });
});

describe.skipIf(testRedisUrl() === undefined)('Redis bus', () => {
  const clients: Redis[] = [];
  const buses: InvalidationBus[] = [];
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    for (const client of clients) await client.quit();
  });

  it('fans a key out to every instance', async () => {
    for (let i = 0; i < 2; i += 1) {
      const client = new Redis(testRedisUrl() as string);
      clients.push(client);
      buses.push(createRedisInvalidationBus(client, logger));
    }
    const [a, b] = buses as [InvalidationBus, InvalidationBus];
    // SUBSCRIBE is asynchronous: wait until a probe reaches each bus before the real check.
    await waitForDelivery(a, b);
    await waitForDelivery(b, a);
    await expectFanOut(a, b);
  });
});

describe.skipIf(testDbKind() !== 'postgres')('PostgreSQL bus', () => {
  let database: DatabaseHandle & { url?: string };
  let second: DatabaseHandle;
  const buses: InvalidationBus[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    // Each bus holds one connection for LISTEN; publishing and the test's queries need more.
    second = await openPostgres(database.url as string, { migrate: false, poolSize: 4 });
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await second.close();
    await database.close();
  });

  it('fans a key out to every instance through LISTEN/NOTIFY', async () => {
    const a = await createPostgresInvalidationBus(database.pool as NonNullable<DatabaseHandle['pool']>, logger);
    const b = await createPostgresInvalidationBus(second.pool as NonNullable<DatabaseHandle['pool']>, logger);
    buses.push(a, b);
    await expectFanOut(a, b);
  });

  it('tells listeners to forget everything after its LISTEN connection is lost', async () => {
    const pool = second.pool as NonNullable<DatabaseHandle['pool']>;
    const bus = await createPostgresInvalidationBus(pool, logger);
    buses.push(bus);
    const everything = collect(bus, 'rules', 1);
    // Kill the listening backend from outside, as a server restart or failover would.
    await pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    expect(await everything).toEqual([EVERY_KEY]);
    // And it listens again.
    const after = collect(bus, 'rules', 1);
    bus.publish('rules', 'shp_9');
    expect(await after).toEqual(['shp_9']);
  });
});

async function waitForDelivery(from: InvalidationBus, to: InvalidationBus): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const probe = `probe-${attempt}`;
    const got = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        unsubscribe();
        resolve(false);
      }, 100);
      const unsubscribe = to.subscribe('probe', (key) => {
        if (key !== probe) return;
        clearTimeout(timer);
        unsubscribe();
        resolve(true);
      });
    });
    from.publish('probe', probe);
    if (await got) return;
  }
  throw new Error('the bus never delivered');
}
