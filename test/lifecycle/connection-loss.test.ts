/**
 * Issue 20, item 1: PostgreSQL dropping the service's connections (an administrator's
 * pg_terminate_backend, a restart, a failover, a proxy closing idle connections) never ends the
 * process, never keeps a pool slot, and the next write succeeds. Requests caught by the drop get
 * a 503 (never a 500), and may be tried again.
 *
 * Two ways: the real `node src/main.ts` as a child process under mixed traffic with its outbox
 * polling every 50 ms, its backends terminated again and again; and the app in this process,
 * whose pool is read directly, with a connection also dropped at the very moment a transaction
 * checks it out (its BEGIN then fails), which outside terminations hit only by chance.
 *
 * PostgreSQL only: PGlite runs in the process and has no connection to lose.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createOutboxDispatcher } from '../../src/outbox/dispatcher.ts';
import { createPlatformJobs } from '../../src/platform-jobs.ts';
import { createRecordingDiscountPort } from '../../src/platform/discount-port.ts';
import { campaign } from '../campaigns/fixtures.ts';
import { startChildServer } from '../support/child-server.ts';
import { POSTGRES_ONLY, testDbKind } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { product } from './harness.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';

const ADMIN = 'connection-loss-admin-token-01';
const onPostgres = testDbKind() === 'postgres';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A connection of the test's own (to the run's base database) that terminates another database's backends. */
async function terminator(database: string): Promise<{ terminate(): Promise<number>; end(): Promise<void> }> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  return {
    async terminate() {
      const result = await client.query<{ count: string }>(
        'SELECT count(pg_terminate_backend(pid)) AS count FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      return Number(result.rows[0]?.count ?? 0);
    },
    end: () => client.end(),
  };
}

const databaseName = (url: string) => new URL(url).pathname.slice(1);

type Traffic = { statuses: number[]; failures: string[]; stop(): Promise<void> };

/** `workers` loops each calling `step` until stopped, keeping every status and every transport failure. */
function keepCalling(workers: number, step: (worker: number, round: number) => Promise<number[]>): Traffic {
  let running = true;
  const statuses: number[] = [];
  const failures: string[] = [];
  const loops = Array.from({ length: workers }, async (_, worker) => {
    for (let round = 0; running; round += 1) {
      try {
        statuses.push(...(await step(worker, round)));
      } catch (error) {
        failures.push(String(error));
      }
    }
  });
  return {
    statuses,
    failures,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe.skipIf(!onPostgres)('PostgreSQL drops the service’s connections', () => {
  it(`${POSTGRES_ONLY}the server stays up under mixed traffic, /healthz answers, and the next write succeeds`, { timeout: 120_000 }, async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    cleanups.push(() => receiver.close());
    const server = await startChildServer({ ADMIN_TOKEN: ADMIN, OUTBOX_POLL_MS: '50', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', RATE_LIMIT_SCALE: '1000' });
    cleanups.push(() => server.close());
    const { base, child } = server;
    const stderr = () => server.stderr();

    const call = async (method: string, path: string, body?: unknown, token = ADMIN) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000),
      });
      return { status: response.status, body: (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined };
    };

    // A shop with a key, a gift in its catalog, a webhook endpoint and a campaign to toggle.
    const shopId = ((await call('POST', '/admin/v1/shops', { domain: 'connection-loss.example.com', plan: 'scale' })).body?.shop as { id: string }).id;
    const key = (await call('POST', `/admin/v1/shops/${shopId}/api-keys`, { name: 'traffic' })).body?.key as string;
    expect((await call('POST', `/admin/v1/shops/${shopId}/catalog`, { products: [product(1)] })).status).toBe(200);
    expect((await call('POST', `/admin/v1/shops/${shopId}/webhook-endpoints`, { url: `${receiver.url}/hooks` })).status).toBe(201);
    const imported = await call('POST', '/api/v1/campaigns/import', { campaigns: [campaign()] }, key);
    const campaignId = (imported.body?.campaignIds as string[])[0];

    // Mixed traffic: shop creation, catalog imports, enable/disable (webhook events the outbox
    // delivers every 50 ms) and GET /rules, from four loops at once.
    const traffic = keepCalling(4, async (worker, round) => {
      switch (worker) {
        case 0:
          return [(await call('POST', '/admin/v1/shops', { domain: `loss-${round}.example.com`, plan: 'free' })).status];
        case 1:
          return [(await call('POST', `/admin/v1/shops/${shopId}/catalog`, { products: [product(1), product(2 + (round % 5))] })).status];
        case 2:
          return [
            (await call('POST', `/api/v1/campaigns/${campaignId}/enable?force=1`, undefined, key)).status,
            (await call('POST', `/api/v1/campaigns/${campaignId}/disable`, undefined, key)).status,
          ];
        default:
          return [(await call('GET', '/api/v1/rules', undefined, key)).status];
      }
    });
    const killer = await terminator(databaseName((await server.database()).url ?? ''));
    cleanups.push(() => killer.end());
    let terminated = 0;
    for (let round = 0; round < 25; round += 1) {
      await sleep(40 + Math.random() * 160);
      terminated += await killer.terminate();
      expect(child.exitCode, stderr()).toBeNull();
    }
    await traffic.stop();
    expect(terminated).toBeGreaterThan(25);

    // Still up; /healthz answers within 5 s (the pool's own connect timeout) and says 200.
    expect(child.exitCode, stderr()).toBeNull();
    const asked = Date.now();
    const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) });
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(health.status).toBe(200);
    // Every answer during the storm was the request's own or a 503 to try again; never a 500.
    expect(traffic.failures).toEqual([]);
    expect(traffic.statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(traffic.statuses.filter((status) => status < 300).length).toBeGreaterThan(0);

    // The next writes succeed, more at once than the pool has connections.
    const writes = await Promise.all(
      Array.from({ length: 25 }, (_, n) => call('POST', '/admin/v1/shops', { domain: `after-${n}.example.com`, plan: 'free' })),
    );
    expect(writes.map((write) => write.status)).toEqual(Array(25).fill(201));
    expect(child.exitCode, stderr()).toBeNull();
    expect(stderr()).not.toMatch(/Unhandled|uncaught/i);

    child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it(`${POSTGRES_ONLY}no pool slot is kept: a BEGIN on a dropped connection, terminations inside transactions and while idle`, { timeout: 120_000 }, async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    cleanups.push(() => receiver.close());
    const t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', RATE_LIMIT_SCALE: '1000' });
    cleanups.push(() => t.close());
    const pool = t.ctx.database.pool;
    if (!pool) throw new Error('expected a PostgreSQL pool');
    const shop = await t.createShop('scale');
    await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/catalog`, payload: { products: [product(1)] } });
    await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/webhook-endpoints`, payload: { url: `${receiver.url}/hooks` } });
    const imported = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [campaign()] } });
    const campaignId = (imported.json() as { campaignIds: string[] }).campaignIds[0];
    const dispatcher = createOutboxDispatcher({ db: t.ctx.db, logger: t.ctx.logger, jobs: createPlatformJobs({ db: t.ctx.db, logger: t.ctx.logger, discountPort: createRecordingDiscountPort(t.ctx.db) }), webhooks: createWebhookSender(), pollMs: 50 });
    dispatcher.start();
    cleanups.push(() => dispatcher.stop());

    // Every third checkout loses its connection on the spot, as when a proxy closed it while
    // idle and the pool hands it out before it noticed: the BEGIN that follows fails.
    let checkouts = 0;
    let dropped = 0;
    const dropSome = (client: pg.PoolClient) => {
      checkouts += 1;
      if (checkouts % 3 !== 0) return;
      dropped += 1;
      (client as unknown as { connection: { stream: Socket } }).connection.stream.destroy();
    };
    pool.on('acquire', dropSome);

    const traffic = keepCalling(4, async (worker, round) => {
      const responses =
        worker === 0
          ? [await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [campaign(`c${round}`)] } })]
          : worker === 1
            ? [
                await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${campaignId}/enable?force=1` }),
                await t.api(shop, { method: 'POST', url: `/api/v1/campaigns/${campaignId}/disable` }),
              ]
            : [await t.api(shop, { method: 'GET', url: '/api/v1/rules' })];
      return responses.map((response) => response.statusCode);
    });
    const killer = await terminator(databaseName((t.ctx.config.databaseUrl ?? (t.ctx.database as { url?: string }).url) ?? ''));
    cleanups.push(() => killer.end());
    for (let round = 0; round < 20; round += 1) {
      await sleep(30 + Math.random() * 120);
      await killer.terminate();
    }
    await traffic.stop();
    pool.off('acquire', dropSome);
    await dispatcher.stop();
    expect(dropped).toBeGreaterThan(3);
    expect(traffic.failures).toEqual([]);
    expect(traffic.statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);

    // Idle again: every slot the storm took is back (nothing checked out, nobody waiting).
    for (let waited = 0; pool.totalCount !== pool.idleCount || pool.waitingCount !== 0; waited += 50) {
      if (waited > 10_000) break;
      await sleep(50);
    }
    expect({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }).toEqual({
      total: pool.idleCount,
      idle: pool.idleCount,
      waiting: 0,
    });
    // The whole pool is usable: as many transactions at once as it has slots, and a write.
    const max = (pool as unknown as { options: { max: number } }).options.max;
    await Promise.all(Array.from({ length: max * 2 }, () => t.ctx.db.transaction(async (tx) => tx.execute(sql`SELECT pg_sleep(0.05)`))));
    const after = await t.api(shop, { method: 'POST', url: '/api/v1/campaigns/import', payload: { campaigns: [campaign('after')] } });
    expect(after.statusCode).toBe(200);
  });
});
