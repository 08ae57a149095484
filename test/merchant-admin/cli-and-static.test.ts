/**
 * The README's way in: `npm run cli -- shop:login-link <shopId>` prints a link that opens the
 * app (through the app), and `/app/` serves the built front end with hashed, precompressed
 * assets; an unknown path under the app's API is still a JSON 404.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { DataDirLockedError } from '../../src/db/data-dir-lock.ts';
import { openLoginLink } from '../support/login-link.ts';
import { ADMIN_TOKEN, createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function cli(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
    openDatabase: async () => ({ ...t.ctx.database, close: async () => {} }),
  });
  return { code, stdout, stderr };
}

describe('shop:login-link', () => {
  it('prints a one-time link under PUBLIC_URL (else http://localhost:PORT) that opens the app once', async () => {
    const shop = await t.createShop('free');
    const out = await cli(['shop:login-link', shop.id], { PORT: '4321' });
    expect(out).toMatchObject({ code: 0, stderr: '' });
    const url = out.stdout.split('\n')[0] ?? '';
    expect(url).toMatch(/^http:\/\/localhost:4321\/app\/login\?token=gcl_[0-9A-Za-z]{16}_[0-9A-Za-z]{32}$/);
    const path = new URL(url).pathname + new URL(url).search;
    expect((await openLoginLink(t.app, url)).statusCode).toBe(303);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(410);

    const https = await cli(['shop:login-link', shop.id, '--json'], { PUBLIC_URL: 'https://gifts.example.com' });
    expect(JSON.parse(https.stdout)).toMatchObject({ loginLink: { url: expect.stringMatching(/^https:\/\/gifts\.example\.com\/app\/login\?token=gcl_/) } });
  });

  it('fails with exit 1 for an unknown shop, and the admin API needs the admin token for a link', async () => {
    const out = await cli(['shop:login-link', 'shp_doesnotexist00']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('not found');
    const shop = await t.createShop('free');
    const res = await t.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/login-links`, headers: { authorization: `Bearer ${shop.key}` } });
    expect(res.statusCode).toBe(401);
  });
});

describe('shop:login-link while the server holds the embedded database', () => {
  const locked = async () => {
    throw new DataDirLockedError('The data directory ./data is in use by process 4242 (started …): stop it first.');
  };
  const cliBeside = async (argv: string[], env: Record<string, string>) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env, openDatabase: locked });
    return { code, stdout, stderr };
  };

  it('asks the running server for the link with ADMIN_TOKEN, and the link opens the app once', async () => {
    const origin = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const env = { PORT: origin.port, HOST: '127.0.0.1', ADMIN_TOKEN };
    const shop = await t.createShop('free');
    const out = await cliBeside(['shop:login-link', shop.id], env);
    expect(out.code, out.stderr).toBe(0);
    const url = new URL(out.stdout.split('\n')[0] ?? '');
    expect(url.pathname).toBe('/app/login');
    expect((await openLoginLink(t.app, url.href)).statusCode).toBe(303);
    expect((await t.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(410);

    const unknown = await cliBeside(['shop:login-link', 'shp_doesnotexist00'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not found');
    const wrongToken = await cliBeside(['shop:login-link', shop.id], { ...env, ADMIN_TOKEN: 'not-the-servers-admin-token' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('refused the login link (401');
  });

  it('without ADMIN_TOKEN says what holds the directory, and other commands never go over HTTP', async () => {
    const out = await cliBeside(['shop:login-link', 'shp_doesnotexist00'], {});
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('in use by process 4242');
    const list = await cliBeside(['shop:list'], { ADMIN_TOKEN });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('in use by process 4242');
  });
});

describe('the served app', () => {
  it('serves the page and its hashed assets, gzip when asked; another hash is 404', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/app/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const js = /src="(\/app\/assets\/app\.[0-9a-f]{16}\.js)"/.exec(page.body)?.[1] ?? '';
    const css = /href="(\/app\/assets\/app\.[0-9a-f]{16}\.css)"/.exec(page.body)?.[1] ?? '';
    expect(js).not.toBe('');
    expect(css).not.toBe('');
    expect((await t.app.inject({ method: 'GET', url: '/app' })).statusCode).toBe(200);

    const script = await t.app.inject({ method: 'GET', url: js, headers: { 'accept-encoding': 'gzip' } });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-encoding']).toBe('gzip');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(script.rawPayload).toString()).toContain('/app/api/v1/session');
    expect((await t.app.inject({ method: 'GET', url: '/app/assets/app.0000000000000000.js' })).statusCode).toBe(404);
  }, 60_000);

  it('an unknown route of the API mount is a JSON 404, not the page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });
});
