import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE_CACHE_CONTROL, SHORT_CACHE_CONTROL, loadStorefrontScript } from '../../src/storefront/script-route.ts';
import type { ServedScript } from '../../src/storefront/script-route.ts';
import { errorBody } from '../support/error-body.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

let t: TestApp;
let script: ServedScript;
beforeAll(async () => {
  t = await createTestApp();
  script = await loadStorefrontScript();
}, 120_000);
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /storefront/v1/gifts.js', () => {
  it('serves the script without a token: JavaScript, short cache, ETag, the versioned URL', async () => {
    const res = await get('/storefront/v1/gifts.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe(SHORT_CACHE_CONTROL);
    expect(res.headers.etag).toBe(`"gifts-${script.hash}"`);
    expect(res.headers['content-location']).toBe(`/storefront/v1/gifts.${script.hash}.js`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.vary).toBe('Accept-Encoding');
    // One IIFE that installs window.svcGifts and listens for the page's cart calls.
    expect(res.body).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(res.body).toContain('svcGifts');
    expect(res.body).toContain('svc:gifts:updated');
    expect(res.body).not.toMatch(/\brequire\(|["']node:/);
  });

  it('answers 304 to its ETag (weak, listed or of another coding) and 200 to a stale one', async () => {
    const first = await get('/storefront/v1/gifts.js');
    const etag = String(first.headers.etag);
    expect((await get('/storefront/v1/gifts.js', { 'if-none-match': etag })).statusCode).toBe(304);
    expect((await get('/storefront/v1/gifts.js', { 'if-none-match': `"x", W/${etag}` })).statusCode).toBe(304);
    const gzipTag = String((await get('/storefront/v1/gifts.js', { 'accept-encoding': 'gzip' })).headers.etag);
    expect(gzipTag).not.toBe(etag);
    const notModified = await get('/storefront/v1/gifts.js', { 'if-none-match': gzipTag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect((await get('/storefront/v1/gifts.js', { 'if-none-match': '"gifts-0000000000000000"' })).statusCode).toBe(200);
  });

  it('serves gzip and br that decode to the same bytes, each with its own ETag', async () => {
    const identity = await get('/storefront/v1/gifts.js');
    const gzip = await get('/storefront/v1/gifts.js', { 'accept-encoding': 'gzip' });
    const br = await get('/storefront/v1/gifts.js', { 'accept-encoding': 'gzip, br' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gzip.rawPayload).equals(identity.rawPayload)).toBe(true);
    expect(brotliDecompressSync(br.rawPayload).equals(identity.rawPayload)).toBe(true);
    expect(new Set([identity.headers.etag, gzip.headers.etag, br.headers.etag]).size).toBe(3);
    expect((await get('/storefront/v1/gifts.js', { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
  });

  it('serves the same bytes under the versioned URL, immutable for a year', async () => {
    const plain = await get('/storefront/v1/gifts.js');
    const versioned = await get(`/storefront/v1/gifts.${script.hash}.js`);
    expect(versioned.statusCode).toBe(200);
    expect(versioned.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(versioned.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(versioned.rawPayload.equals(plain.rawPayload)).toBe(true);
    expect(versioned.headers.etag).toBe(plain.headers.etag);
  });

  it('answers 404 with a JSON error for another hash, and 405 for another method', async () => {
    for (const hash of ['0000000000000000', script.hash.slice(0, 8), `${script.hash}0`, 'x']) {
      const res = await get(`/storefront/v1/gifts.${hash}.js`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody('Script version not found', 'not_found'));
    }
    const post = await t.app.inject({ method: 'POST', url: '/storefront/v1/gifts.js' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET');
  });
});

const CHUNK_GLOBALS = { widgets: 'svcGiftsWidgets', progress: 'svcGiftsProgress', debug: 'svcGiftsDebug' } as const;

describe('GET /storefront/v1/gifts-<chunk>.<hash>.js (the on-demand chunks)', () => {
  it.each(Object.entries(CHUNK_GLOBALS))('%s: named by the first load and served under its versioned URL only, immutable', async (name, global) => {
    const chunk = script.chunks[name as keyof typeof CHUNK_GLOBALS];
    const main = await get('/storefront/v1/gifts.js');
    const path = chunk.versionedPath;
    expect(path).toBe(`/storefront/v1/gifts-${name}.${chunk.hash}.js`);
    // gifts.js resolves the chunk's name beside itself when no data-<name>-src is given.
    expect(main.body).toContain(`gifts-${name}.${chunk.hash}.js`);
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(res.headers.etag).toBe(`"gifts-${name}-${chunk.hash}"`);
    expect(res.body).toContain(global);
    expect(res.body).not.toContain('svc:gifts:updated');
    expect((await get(path, { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304);
  });

  it('answers 404 for another version or another chunk, and has no unversioned URL', async () => {
    for (const name of Object.keys(CHUNK_GLOBALS)) {
      const stale = await get(`/storefront/v1/gifts-${name}.0000000000000000.js`);
      expect(stale.statusCode).toBe(404);
      expect(stale.json()).toEqual(errorBody('Script version not found', 'not_found'));
      expect((await get(`/storefront/v1/gifts-${name}.js`)).statusCode).toBe(404);
    }
    // One chunk's hash does not open another's URL.
    expect((await get(`/storefront/v1/gifts-debug.${script.chunks.widgets.hash}.js`)).statusCode).toBe(404);
  });
});
