/**
 * Issue 20 item 5: the GET /rules cache for many shops. Compression runs once per entry and
 * coding asked for, shared by concurrent misses, off the event loop; POST /evaluate builds no
 * bytes; the entries are bounded by bytes (RULES_CACHE_MAX_BYTES). Proved with the cache's
 * counters and a compressor the test holds, never with the clock.
 */
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompressedCoding, Compressor } from '../../src/rules/representations.ts';
import { createCompressor, ON_DEMAND_LEVELS } from '../../src/rules/representations.ts';
import { RULES_TOPIC } from '../../src/rules/rules-cache.ts';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { cartOf, line } from '../evaluate/helpers.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { getRules, importCampaigns } from './helpers.ts';

/**
 * A shop with enough rules that its payload is compressed (several KB). Returns once the
 * import's invalidation came back over the bus too (Redis and PostgreSQL deliver it later,
 * also to the instance that sent it): a late one would drop the entry the test then counts.
 */
async function shopWithRules(t: TestApp, count = 12): Promise<TestShop> {
  const shop = await t.createShop('scale');
  const rules = Array.from({ length: count }, (_, i) => rule(`Spend ${i}`));
  let unsubscribe = () => {};
  const delivered = new Promise<void>((resolve) => {
    unsubscribe = t.ctx.invalidation.subscribe(RULES_TOPIC, (shopId) => {
      if (shopId === shop.id) resolve();
    });
  });
  await importCampaigns(t, shop, [campaign('Big', { enabled: true, isDraft: false, rules })]);
  await delivered;
  unsubscribe();
  return shop;
}

const stats = (t: TestApp) => t.ctx.rulesCache.stats();

describe('GET /rules compression', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('compresses once for concurrent misses of one shop, and only the coding asked for', async () => {
    const shop = await shopWithRules(t);
    const before = stats(t);
    const answers = await Promise.all(Array.from({ length: 8 }, () => getRules(t, shop, 'api', { 'accept-encoding': 'br' })));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    const bodies = new Set(answers.map((res) => res.rawPayload.toString('base64')));
    expect(bodies.size).toBe(1);
    expect(answers[0]?.headers['content-encoding']).toBe('br');
    const after = stats(t);
    expect(after.compressions.br - before.compressions.br).toBe(1);
    expect(after.compressions.gzip - before.compressions.gzip).toBe(0);
    expect(after.bodies - before.bodies).toBe(1);

    // The identity and a 304 compress nothing more; gzip is compressed when first asked for.
    expect((await getRules(t, shop)).statusCode).toBe(200);
    const tag = String(answers[0]?.headers.etag);
    expect((await getRules(t, shop, 'api', { 'accept-encoding': 'gzip', 'if-none-match': tag })).statusCode).toBe(304);
    expect(stats(t).compressions).toEqual(after.compressions);
    expect((await getRules(t, shop, 'api', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    expect(stats(t).compressions.gzip - before.compressions.gzip).toBe(1);
  });

  it('never answers 304 to another shop\'s tag, and refuses a bad key with 401, compressing nothing', async () => {
    const [shop, other] = [await shopWithRules(t), await shopWithRules(t)];
    const otherTag = String((await getRules(t, other, 'api', { 'accept-encoding': 'br' })).headers.etag);
    const res = await getRules(t, shop, 'api', { 'accept-encoding': 'br', 'if-none-match': otherTag });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toBe(otherTag);
    const before = stats(t);
    const refused = await t.api('gcrs_live_not-a-key', { method: 'GET', url: '/api/v1/rules', headers: { 'accept-encoding': 'br' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toHaveProperty('error');
    expect(stats(t).compressions).toEqual(before.compressions);
  });

  it('builds neither body nor compression for POST /evaluate', async () => {
    const shop = await shopWithRules(t);
    const before = stats(t);
    for (let i = 0; i < 3; i += 1) {
      const res = await t.api(shop, { method: 'POST', url: '/api/v1/evaluate?trace=false', headers: { 'accept-encoding': 'gzip, br' }, payload: cartOf([line()]) });
      expect(res.statusCode, res.body).toBe(200);
    }
    const after = stats(t);
    expect(after.bodies).toBe(before.bodies);
    expect(after.compressions).toEqual(before.compressions);
    expect(t.ctx.rulesCache.cachedVersion(shop.id)).toBeDefined();
  });
});

describe('GET /rules while a compression runs', () => {
  // Each compression waits until the test releases it: nothing else may wait with it.
  const held: Array<{ coding: CompressedCoding; release: () => void }> = [];
  const real = createCompressor(ON_DEMAND_LEVELS);
  const holding: Compressor = (coding, body) =>
    new Promise<void>((release) => {
      held.push({ coding, release });
    }).then(() => real(coding, body));
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { compress: holding });
  });
  afterAll(() => t.close());

  it('serves the identity, 304s and evaluations meanwhile, and sends the compressed bytes once released', async () => {
    const shop = await shopWithRules(t);
    const identity = await getRules(t, shop);
    expect(identity.statusCode).toBe(200);
    let brDone = false;
    const brotli = getRules(t, shop, 'api', { 'accept-encoding': 'br' }).then((res) => {
      brDone = true;
      return res;
    });
    const second = getRules(t, shop, 'api', { 'accept-encoding': 'br' });
    await expect.poll(() => held.length, { timeout: 20_000 }).toBe(1);

    expect((await getRules(t, shop)).rawPayload.equals(identity.rawPayload)).toBe(true);
    const brTag = `${String(identity.headers.etag).slice(0, -1)}-br"`;
    const notModified = await getRules(t, shop, 'api', { 'accept-encoding': 'br', 'if-none-match': brTag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers.etag).toBe(brTag);
    const evaluated = await t.api(shop, { method: 'POST', url: '/api/v1/evaluate?trace=false', payload: cartOf([line()]) });
    expect(evaluated.statusCode).toBe(200);
    expect(brDone).toBe(false);
    expect(held.map((h) => h.coding)).toEqual(['br']);

    held[0]?.release();
    const [first, other] = [await brotli, await second];
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.etag).toBe(brTag);
    expect(brotliDecompressSync(first.rawPayload).equals(identity.rawPayload)).toBe(true);
    expect(other.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(held).toHaveLength(1);
  });
});

describe('RULES_CACHE_MAX_BYTES', () => {
  let t: TestApp;
  const maxBytes = 120_000;
  beforeAll(async () => {
    t = await createTestApp({ RULES_CACHE_MAX_BYTES: String(maxBytes) });
  });
  afterAll(() => t.close());

  it('keeps the entries within the bound, dropping the least recently read shop first', async () => {
    const shops = [await shopWithRules(t), await shopWithRules(t), await shopWithRules(t)];
    const [a, b, c] = shops;
    if (!a || !b || !c) throw new Error('no shops');
    const payloads = new Map<string, string>();
    for (const shop of shops) {
      const res = await getRules(t, shop, 'api', { 'accept-encoding': 'br' });
      expect(res.statusCode).toBe(200);
      payloads.set(shop.id, brotliDecompressSync(res.rawPayload).toString('utf8'));
      expect(stats(t).bytes).toBeLessThanOrEqual(maxBytes);
    }
    // Each entry counts ~35 KB of objects plus its bytes: two fit, the oldest (a) went.
    expect(stats(t).entries).toBe(2);
    expect(t.ctx.rulesCache.cachedVersion(a.id)).toBeUndefined();

    // Reading b makes c the least recent: a's return evicts c, not b.
    expect((await getRules(t, b)).statusCode).toBe(200);
    const again = await getRules(t, a, 'api', { 'accept-encoding': 'br' });
    expect(brotliDecompressSync(again.rawPayload).toString('utf8')).toBe(payloads.get(a.id));
    expect(t.ctx.rulesCache.cachedVersion(b.id)).toBeDefined();
    expect(t.ctx.rulesCache.cachedVersion(c.id)).toBeUndefined();
    expect(stats(t)).toMatchObject({ entries: 2, maxBytes });
    expect(stats(t).bytes).toBeLessThanOrEqual(maxBytes);
  });
});
