/**
 * Authentication's key → shop cache (src/api-keys/key-cache.ts) never outlives a change:
 * revocation answers 401 and a plan downgrade 403 at the key's next request, on this
 * instance and (PostgreSQL) on a second instance sharing the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/database.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { importCampaigns } from '../rules/helpers.ts';
import { createTestDatabase, testDbKind, testRedisUrl } from '../support/database.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';

const rules = (t: TestApp, shop: TestShop) => t.api(shop, { method: 'GET', url: '/api/v1/rules' });

async function keyIdOf(t: TestApp, shop: TestShop): Promise<string> {
  const res = await t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/api-keys` });
  const [key] = (res.json() as { apiKeys: Array<{ id: string }> }).apiKeys;
  if (!key) throw new Error('no key');
  return key.id;
}

/** The checks, with `writer` making the changes and `reader` serving the key. */
function exactnessCases(instances: () => { writer: TestApp; reader: TestApp }) {
  it('answers 401 at the next request after the key is revoked', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    const other = await writer.createShop('scale');
    expect((await rules(reader, shop)).statusCode).toBe(200);
    expect((await rules(reader, shop)).statusCode).toBe(200);
    const revoked = await writer.admin({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api-keys/${await keyIdOf(writer, shop)}` });
    expect(revoked.statusCode).toBe(200);
    const res = await rules(reader, shop);
    expect(res.statusCode).toBe(401);
    // Another shop's cached key is untouched.
    expect((await rules(reader, other)).statusCode).toBe(200);
  });

  it('answers 403 at the next request after a downgrade, and 200 again after the upgrade', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    expect((await rules(reader, shop)).statusCode).toBe(200);
    const patch = (plan: string) => writer.admin({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, payload: { plan } });
    expect((await patch('growth')).statusCode).toBe(200);
    const denied = await rules(reader, shop);
    expect(denied.statusCode).toBe(403);
    expect((await patch('scale')).statusCode).toBe(200);
    expect((await rules(reader, shop)).statusCode).toBe(200);
  });

  it('serves a rules write at the next request though the key was cached before it', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    const before = await rules(reader, shop);
    expect(before.json().rules).toEqual([]);
    await importCampaigns(writer, shop, [campaign('Live', { enabled: true, isDraft: false, rules: [rule('now')] })]);
    const after = await rules(reader, shop);
    expect(after.statusCode).toBe(200);
    expect(after.json().rules.map((r: { name: string }) => r.name)).toEqual(['now']);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('never lets one shop\'s key read another shop', async () => {
    const { writer, reader } = instances();
    const shop = await writer.createShop('scale');
    const other = await writer.createShop('scale');
    await importCampaigns(writer, other, [campaign('Theirs', { enabled: true, isDraft: false, rules: [rule('theirs')] })]);
    expect((await rules(reader, other)).json().rules).toHaveLength(1);
    expect((await rules(reader, shop)).json().rules).toEqual([]);
    // A key of the right shape with a wrong secret is not served from the cache.
    const forged = `${shop.key.slice(0, -4)}AAAA`;
    expect((await reader.api(forged, { method: 'GET', url: '/api/v1/rules' })).statusCode).toBe(401);
  });
}

describe('API key cache, one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_SCALE: '100' });
  });
  afterAll(() => t.close());

  it('caches only on the in-process bus, where invalidation is synchronous', () => {
    expect(t.ctx.apiKeys.caching).toBe(t.ctx.invalidation.kind === 'memory');
  });
  exactnessCases(() => ({ writer: t, reader: t }));
});

const transports = [
  ...(testRedisUrl() === undefined ? [] : [{ name: 'Redis pub/sub', env: {} as Record<string, string> }]),
  { name: 'LISTEN/NOTIFY', env: { REDIS_URL: '' } as Record<string, string> },
];

describe.skipIf(testDbKind() !== 'postgres').each(transports)('API key cache, two instances over $name', ({ env }) => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const settings = { RATE_LIMIT_SCALE: '100', ...env };
    first = await createTestApp(settings, { database });
    second = await createTestApp(settings, { database: await openPostgres(database.url as string, { migrate: false, poolSize: 5 }) });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });
  exactnessCases(() => ({ writer: first, reader: second }));
});
