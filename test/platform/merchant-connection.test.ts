/**
 * The merchant admin reads its own shop's platform connection and catalog import (Settings →
 * Plan's platform section) through the same GET …/platform-connection handler as the operator;
 * it cannot set or drop the token, nor read another shop's. PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogImports } from '../../src/db/schema.ts';
import { connectedShop, sessionToken, startBillingStack } from '../billing/support.ts';
import type { BillingStack } from '../billing/support.ts';

let stack: BillingStack;
beforeAll(async () => {
  stack = await startBillingStack();
});
afterAll(() => stack.close());

describe('GET /app/api/v1/platform-connection', () => {
  it('answers the session\'s shop, with its import; another shop\'s stays out of reach; no PUT or DELETE', async () => {
    const [a, b] = [await connectedShop(stack), await connectedShop(stack)];
    await stack.t.ctx.db.insert(catalogImports).values({ shopId: a.id, id: 'imp_merchant000000001', status: 'running', pages: 2, products: 50, variants: 90, startedAt: new Date(), lastError: 'Throttled (HTTP 429)' });
    const asA = { authorization: `Bearer ${sessionToken(a.domain)}` };
    const res = await stack.t.app.inject({ method: 'GET', url: '/app/api/v1/platform-connection', headers: asA });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ connected: true, broken: false, catalogImport: { status: 'running', pages: 2, products: 50, variants: 90, lastError: 'Throttled (HTTP 429)' } });
    expect(res.body).not.toContain(a.token.slice(6));
    const asB = await stack.t.app.inject({ method: 'GET', url: '/app/api/v1/platform-connection', headers: { authorization: `Bearer ${sessionToken(b.domain)}` } });
    expect(asB.json()).toMatchObject({ connected: true, broken: false, catalogImport: null });
    expect((await stack.t.app.inject({ method: 'GET', url: `/admin/v1/shops/${b.id}/platform-connection`, headers: asA })).statusCode).toBe(401);
    for (const method of ['PUT', 'DELETE'] as const) {
      const write = await stack.t.app.inject({ method, url: '/app/api/v1/platform-connection', headers: asA, ...(method === 'PUT' ? { payload: { accessToken: a.token } } : {}) });
      expect([404, 405], method).toContain(write.statusCode);
    }
  });
});
