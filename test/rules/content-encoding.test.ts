import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaign, rule } from '../campaigns/fixtures.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp, TestShop } from '../support/test-app.ts';
import { getRules, importCampaigns } from './helpers.ts';

let t: TestApp;
let shop: TestShop;
let other: TestShop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await t.createShop('scale');
  other = await t.createShop('scale');
  // Enough rules that compression pays (the payload is a few KB).
  const rules = Array.from({ length: 12 }, (_, i) => rule(`Spend ${i}`));
  await importCampaigns(t, shop, [campaign('Big', { enabled: true, isDraft: false, rules })]);
  await importCampaigns(t, other, [campaign('Big', { enabled: true, isDraft: false, rules })]);
});
afterAll(() => t.close());

const raw = async (s: TestShop, headers: Record<string, string>) => {
  const res = await getRules(t, s, 'api', headers);
  return { res, bytes: res.rawPayload };
};

describe('GET /rules content codings', () => {
  it('sends the identity when Accept-Encoding is absent, with Vary: Accept-Encoding', async () => {
    const { res } = await raw(shop, {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.json().rules).toHaveLength(12);
  });

  it('sends gzip and br bytes that decode to the identity body, each with its own strong ETag', async () => {
    const identity = await raw(shop, {});
    const gzip = await raw(shop, { 'accept-encoding': 'gzip' });
    const br = await raw(shop, { 'accept-encoding': 'br' });
    expect(gzip.res.headers['content-encoding']).toBe('gzip');
    expect(br.res.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gzip.bytes).equals(identity.bytes)).toBe(true);
    expect(brotliDecompressSync(br.bytes).equals(identity.bytes)).toBe(true);
    expect(gzip.bytes.length).toBeLessThan(identity.bytes.length / 3);
    expect(Number(gzip.res.headers['content-length'])).toBe(gzip.bytes.length);
    const tags = new Set([identity.res.headers.etag, gzip.res.headers.etag, br.res.headers.etag]);
    expect(tags.size).toBe(3);
    expect(gzip.res.headers.etag).toBe(`${String(identity.res.headers.etag).slice(0, -1)}-gzip"`);
  });

  it('honours q-values: the highest accepted coding wins, br first at equal q, q=0 refuses', async () => {
    const coding = async (header: string) => (await raw(shop, { 'accept-encoding': header })).res.headers['content-encoding'];
    expect(await coding('gzip, deflate, br')).toBe('br');
    expect(await coding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(await coding('br;q=0, gzip;q=0.1')).toBe('gzip');
    expect(await coding('br;q=0, gzip;q=0')).toBeUndefined();
    expect(await coding('*')).toBe('br');
    expect(await coding('*;q=0.2, br;q=0')).toBe('gzip');
    expect(await coding('deflate, identity')).toBeUndefined();
  });

  it('answers 304 to the ETag of any coding of the current payload, with the chosen coding in ETag', async () => {
    const gzipTag = String((await raw(shop, { 'accept-encoding': 'gzip' })).res.headers.etag);
    const again = await raw(shop, { 'accept-encoding': 'gzip', 'if-none-match': gzipTag });
    expect(again.res.statusCode).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.res.headers.etag).toBe(gzipTag);
    expect(again.res.headers['content-encoding']).toBeUndefined();
    // The client dropped gzip support but kept its tag: its copy is still the current data.
    const plain = await raw(shop, { 'if-none-match': gzipTag });
    expect(plain.res.statusCode).toBe(304);
  });

  it('never answers 304 to another shop\'s tag of any coding', async () => {
    const otherTag = String((await raw(other, { 'accept-encoding': 'br' })).res.headers.etag);
    const res = await raw(shop, { 'accept-encoding': 'br', 'if-none-match': otherTag });
    expect(res.res.statusCode).toBe(200);
    expect(res.res.headers.etag).not.toBe(otherTag);
  });

  it('stops answering 304 to the old compressed tag after a write', async () => {
    const before = String((await raw(shop, { 'accept-encoding': 'br' })).res.headers.etag);
    await importCampaigns(t, shop, [campaign('More', { enabled: true, isDraft: false, rules: [rule('x')] })]);
    const after = await raw(shop, { 'accept-encoding': 'br', 'if-none-match': before });
    expect(after.res.statusCode).toBe(200);
    expect(JSON.parse(brotliDecompressSync(after.bytes).toString('utf8')).rules).toHaveLength(13);
  });

  it('refuses a missing key with 401 whatever the Accept-Encoding', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/rules', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('keeps a tiny payload (an empty shop) uncompressed when compression would not shrink it', async () => {
    const empty = await t.createShop('scale');
    const res = await getRules(t, empty, 'api', { 'accept-encoding': 'gzip, br' });
    expect(res.statusCode).toBe(200);
    const compressed = res.headers['content-encoding'];
    if (compressed === undefined) expect(res.json().rules).toEqual([]);
    else expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength((await getRules(t, empty)).body));
  });
});
