/** The operator CLI: the same bootstrap as the admin API, straight on the database. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError, runCommand } from '../../src/cli.ts';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

const run = promisify(execFile);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const cli = (...argv: string[]) => runCommand(t.ctx.db, t.config, argv);

describe('CLI commands', () => {
  it('creates a Scale shop and a key that the API accepts', async () => {
    const created = await cli('shop:create', '--domain', `cli-${Date.now()}.example.com`, '--plan', 'scale', '--json');
    const { shop } = created.json as { shop: { id: string; plan: string } };
    expect(shop.plan).toBe('scale');
    const keyOut = await cli('key:create', shop.id, '--name', 'ci');
    const { key } = keyOut.json as { key: string };
    expect(keyOut.text).toContain(key);
    const res = await t.api(key, { method: 'GET', url: '/api/v1/campaigns' });
    expect(res.statusCode).toBe(200);
  });

  it('creates the first key with the shop when asked (--key), printing it last', async () => {
    const out = await cli('shop:create', '--domain', `cli3-${Date.now()}.example.com`, '--plan', 'scale', '--key');
    const key = out.text.split('\n').at(-1) ?? '';
    expect(key).toMatch(/^gcr_/);
    expect((await t.api(key, { method: 'GET', url: '/api/v1/campaigns' })).statusCode).toBe(200);
  });

  it('changes a plan, lists and revokes keys', async () => {
    const { shop } = (await cli('shop:create', '--domain', `cli2-${Date.now()}.example.com`, '--plan', 'free')).json as { shop: { id: string } };
    expect(((await cli('shop:plan', shop.id, 'pro')).json as { shop: { plan: string } }).shop.plan).toBe('pro');
    const { apiKey, key } = (await cli('key:create', shop.id)).json as { apiKey: { id: string }; key: string };
    const listed = (await cli('key:list', shop.id)).json as { apiKeys: Array<{ id: string }> };
    expect(listed.apiKeys.map((k) => k.id)).toEqual([apiKey.id]);
    expect(JSON.stringify(listed)).not.toContain(key);
    await cli('key:revoke', shop.id, apiKey.id);
    expect(((await cli('key:list', shop.id)).json as { apiKeys: unknown[] }).apiKeys).toEqual([]);
  });

  it.each([
    [['shop:create', '--domain', 'x.example.com', '--plan', 'gold'], /plan/],
    [['shop:create', '--plan', 'free'], /domain/],
    [['shop:show', 'shp_missing'], /not found/],
    [['shop:plan', 'shp_missing', 'pro'], /not found/],
    [['key:revoke', 'shp_missing', 'key_x'], /not found/],
    [['frobnicate'], /Unknown command/],
  ])('fails clearly for %j', async (argv, message) => {
    await expect(cli(...argv)).rejects.toThrow(CliError);
    await expect(cli(...argv)).rejects.toThrow(message);
  });
});

describe('CLI process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gcrs-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints --json and exits 0, and exits 1 with a message on errors', async () => {
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '' };
    const { stdout } = await run(process.execPath, ['src/cli.ts', 'shop:create', '--domain', 'proc.example.com', '--plan', 'scale', '--json'], { env });
    expect(JSON.parse(stdout).shop.domain).toBe('proc.example.com');
    const failed = await run(process.execPath, ['src/cli.ts', 'shop:show', 'shp_nope'], { env }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('Shop shp_nope not found');
  }, 90_000);
});
