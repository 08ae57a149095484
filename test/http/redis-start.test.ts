/**
 * Redis at start (docs/operations.md "Redis down"): a server opened with REDIS_URL uses Redis
 * from its first request, and a Redis that is down or silent at start costs the start at most
 * the connect timeout, after which the service runs on the documented fallback.
 *
 * Before opening waited for the connection, the first requests after start found it still
 * connecting: they were counted in the instance's own window and /healthz said "down".
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisConnection } from '../../src/redis/connection.ts';
import { sparePort } from '../support/ports.ts';
import { createPrivateRedis, hasRedisServer } from '../support/private-redis.ts';
import type { PrivateRedis } from '../support/private-redis.ts';
import { createTestApp } from '../support/test-app.ts';

const silent = pino({ level: 'silent' });

async function timedOpen(url: string, timeoutMs: number) {
  const started = performance.now();
  const redis = await createRedisConnection({ url }, { timeoutMs, logger: silent });
  return { redis, ms: performance.now() - started };
}

describe.skipIf(!hasRedisServer)('Redis at start', () => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await createPrivateRedis();
    await redis.start();
  });
  afterAll(() => redis.remove());

  it('counts the first request after start in Redis and says "up" on the first /healthz', async () => {
    const t = await createTestApp({ REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '5000' });
    try {
      // Nothing awaited between the start and these: the connection is ready when the app is.
      expect(t.ctx.redis?.status).toBe('ready');
      const [health, shop] = await Promise.all([t.app.inject({ method: 'GET', url: '/healthz' }), t.createShop('scale')]);
      expect(health.json()).toEqual({ ok: true, redis: 'up' });
      const listed = await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' });
      expect(listed.statusCode).toBe(200);
      expect(redis.cli('--scan', '--pattern', 'ratelimit:*').split('\n').filter(Boolean)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('opens at once when nothing listens, and the service answers from its own window', async () => {
    const url = `redis://127.0.0.1:${await sparePort()}`;
    // A 2.5 s command timeout makes the connect timeout 10 s (4 ×): an open that waited for it
    // instead of taking the refusal at once is told apart with 5 s to spare on a loaded machine.
    const { redis: refused, ms } = await timedOpen(url, 2500);
    refused.disconnect();
    expect(ms).toBeLessThan(5000);

    const t = await createTestApp({ REDIS_URL: url });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true, redis: 'down' });
      const shop = await t.createShop('scale');
      expect((await t.api(shop, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('gives up on a peer that accepts and never answers, within the connect timeout', async () => {
    const sockets = new Set<Socket>();
    const silentPeer: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silentPeer.listen(0, '127.0.0.1', resolve));
    const { port } = silentPeer.address() as { port: number };
    try {
      const { redis: mute, ms } = await timedOpen(`redis://127.0.0.1:${port}`, 250);
      const status = mute.status;
      mute.disconnect();
      console.info(`silent peer: open gave up after ${ms.toFixed(0)} ms (${status})`);
      // ioredis's ready check (INFO) times out at the command timeout; the connect timeout,
      // max(1 s, 4 × 250 ms), bounds the wait in any case. The point is that the open ends:
      // 3 s of slack for timers firing late at load 20 (an open waiting for this peer never ends).
      expect(ms).toBeGreaterThanOrEqual(240);
      expect(ms).toBeLessThan(1000 + 3000);
      expect(status).not.toBe('ready');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silentPeer.close(resolve));
    }
  });
});
