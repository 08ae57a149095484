/**
 * Request logging at each level (src/app.ts gives Fastify no logger when LOG_LEVEL=silent):
 * at info every request is logged with its X-Request-Id; a level that hides info logs no
 * successful request; silent logs nothing and still gives every answer its request id.
 * Child loggers (src/logging/child.ts) are counted: pino builds a child's bindings when it is
 * made, so a request must make none that nothing writes through.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function rulesRequestLogs(level: string) {
  const lines: string[] = [];
  const t = await createTestApp({ LOG_LEVEL: level }, { logDestination: { write: (chunk: string) => void lines.push(chunk) } });
  apps.push(t);
  const shop = await t.createShop('scale');
  lines.length = 0;
  const res = await t.api(shop, { method: 'GET', url: '/api/v1/rules' });
  expect(res.statusCode).toBe(200);
  const requestId = res.headers['x-request-id'];
  expect(requestId).toMatch(/^req_[0-9A-Za-z]{16}$/);
  return { requestId, logs: lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('request logs', () => {
  it('at info: the request is logged on its way in and out, under its X-Request-Id', async () => {
    const { requestId, logs } = await rulesRequestLogs('info');
    const mine = logs.filter((entry) => entry.reqId === requestId);
    expect(mine.map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);
    expect(mine[1]).toMatchObject({ res: { statusCode: 200 } });
  });

  it('at warn: a successful request writes nothing', async () => {
    const { logs } = await rulesRequestLogs('warn');
    expect(logs).toEqual([]);
  });

  it('at silent: nothing is written, and the answer still has its request id', async () => {
    const { logs } = await rulesRequestLogs('silent');
    expect(logs).toEqual([]);
  });
});

/** An app at `level` whose logger counts the pino children made (children inherit the spy). */
async function countingApp(level: string) {
  const lines: string[] = [];
  const t = await createTestApp({ LOG_LEVEL: level }, { logDestination: { write: (chunk: string) => void lines.push(chunk) } });
  apps.push(t);
  const shop = await t.createShop('scale');
  const children = vi.spyOn(t.ctx.logger, 'child');
  return { t, shop, lines, children };
}

const cart = { cart: { currency: 'USD', lines: [{ productId: 'gid://shopify/Product/1', variantId: 'gid://shopify/ProductVariant/1', quantity: 1, price: 1000 }] } };

describe('child loggers per request', () => {
  it('at warn: a request that writes nothing makes no child logger', async () => {
    const { t, shop, lines, children } = await countingApp('warn');
    lines.length = 0;
    for (let i = 0; i < 5; i += 1) {
      expect((await t.api(shop, { method: 'GET', url: '/api/v1/rules' })).statusCode).toBe(200);
      expect((await t.api(shop, { method: 'POST', url: '/api/v1/evaluate?trace=false', payload: cart })).statusCode).toBe(200);
    }
    expect(children).toHaveBeenCalledTimes(0);
    expect(lines).toEqual([]);
  });

  it('at info: one child per request (its request id), none for the shop until a line needs it', async () => {
    const { t, shop, lines, children } = await countingApp('info');
    lines.length = 0;
    for (let i = 0; i < 5; i += 1) {
      expect((await t.api(shop, { method: 'POST', url: '/api/v1/evaluate?trace=false', payload: cart })).statusCode).toBe(200);
    }
    expect(children).toHaveBeenCalledTimes(5);
    expect(lines).toHaveLength(10);
  });

  it('a line written after authentication carries the request id and the shop', async () => {
    const { t, shop, lines } = await countingApp('info');
    lines.length = 0;
    const res = await t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/api-keys`, payload: { name: 'second' } });
    expect(res.statusCode).toBe(201);
    const logs = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const created = logs.find((entry) => entry.msg === 'api key created');
    expect(created).toMatchObject({ reqId: res.headers['x-request-id'], shopId: shop.id, admin: true, level: 30 });
    expect(created?.keyPrefix).toEqual(expect.stringMatching(/^gcr_/));
  });

  it('at warn: a refused body (400) makes no child logger either', async () => {
    const { t, shop, lines, children } = await countingApp('warn');
    lines.length = 0;
    // A bad body is a 400: nothing at warn, and so no child.
    const res = await t.api(shop, { method: 'POST', url: '/api/v1/evaluate', payload: { cart: { currency: 'US' } } });
    expect(res.statusCode).toBe(400);
    expect(children).toHaveBeenCalledTimes(0);
    expect(lines).toEqual([]);
  });
});
