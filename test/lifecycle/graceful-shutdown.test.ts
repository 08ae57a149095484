/**
 * CONTRACT "Running it": SIGTERM drains in-flight requests and pending outbox work, then
 * exits 0. The real `node src/main.ts` runs as a child process; SIGTERM arrives while its
 * dispatcher is waiting on a slow webhook receiver, and the delivery still completes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openPglite } from '../../src/db/database.ts';
import { outbox } from '../../src/db/schema.ts';
import { campaign } from '../campaigns/fixtures.ts';
import { startChildServer } from '../support/child-server.ts';
import { testDbKind } from '../support/database.ts';
import { LOOPBACK_RECEIVERS, startReceiver } from '../webhooks/receiver.ts';
import { buildServerBundle, freshServerBundle } from '../../src/startup/server-bundle.ts';
import { sparePort } from '../support/ports.ts';
import { product } from './harness.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = 'shutdown-test-admin-token-0123';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let bundleDir: Promise<string> | undefined;
/** The environment that makes `src/main.ts` run from source, or from a bundle built once for this file. */
async function startFrom(mode: 'source' | 'bundle'): Promise<Record<string, string>> {
  if (mode === 'source') return { SERVER_BUNDLE: 'off' };
  bundleDir ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gcrs-shutdown-bundle-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    if ((await buildServerBundle(dir)) === undefined) throw new Error('a source file changed during the bundle build');
    return dir;
  })();
  const dir = await bundleDir;
  if (freshServerBundle(dir) === undefined) throw new Error('the bundle went stale');
  return { SERVER_BUNDLE: 'auto', SERVER_BUNDLE_DIR: dir };
}

// Both ways `npm start` runs the server: from source, and from the prebuilt bundle
// (src/startup/server-bundle.ts), on each store.
describe.each(['source', 'bundle'] as const)('SIGTERM, server started from %s', (mode) => {
  it('finishes the outbox batch in hand, then exits 0', { timeout: 90_000 }, async () => {
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 700 }));
    cleanups.push(() => receiver.close());
    const server = await startChildServer({ ADMIN_TOKEN: ADMIN, OUTBOX_POLL_MS: '50', WEBHOOK_ALLOWED_HOSTS: LOOPBACK_RECEIVERS, ...(await startFrom(mode)) });
    cleanups.push(() => server.close());
    const { base, child } = server;

    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const { shop } = (await admin('POST', '/shops', { domain: `shutdown-${Date.now()}.example.com`, plan: 'scale' })) as { shop: { id: string } };
    await admin('POST', `/shops/${shop.id}/webhook-endpoints`, { url: `${receiver.url}/hooks` });
    await admin('POST', `/shops/${shop.id}/catalog`, { products: [product(1)] });
    const { campaignIds } = (await admin('POST', `/shops/${shop.id}/campaigns/import`, { campaigns: [campaign()] })) as { campaignIds: string[] };
    await admin('POST', `/shops/${shop.id}/campaigns/${campaignIds[0]}/enable`);

    // The dispatcher has the delivery in hand; the receiver takes 700 ms to answer.
    await receiver.waitFor(1);
    child.kill('SIGTERM');
    expect(await server.exited, server.stderr()).toBe(0);
    expect(receiver.eventsAt('/hooks').map((e) => e.type)).toEqual(['campaign.activated']);

    const database = await server.database();
    try {
      const rows = await database.db.select().from(outbox).where(eq(outbox.shopId, shop.id));
      const webhook = rows.find((row) => row.kind === 'webhook');
      expect(webhook).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200 });
    } finally {
      await database.close();
    }
  });

  // src/main.ts starts opening PGlite before it loads the server, and the workers wait for the
  // first answer (or 1 s): a SIGTERM before any request must still stop everything cleanly.
  it.skipIf(testDbKind() !== 'pglite')('exits 0 and frees the data directory when stopped before its first request', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gcrs-early-stop-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const unpacked = spawnSync('tar', ['xf', inject('pgliteTemplatePath'), '-C', dataDir]);
    if (unpacked.status !== 0) throw new Error(`tar failed: ${unpacked.stderr.toString()}`);
    const child = spawn(process.execPath, ['--conditions=@gcrs/source', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: String(await sparePort()), ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'info', DATA_DIR: dataDir, ...(await startFrom(mode)) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    const listening = new Promise<void>((resolve) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Server listening')) resolve();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await Promise.race([listening, exited]);
    child.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    // The lock is gone: this process can open the directory.
    const database = await openPglite({ dataDir });
    await database.close();
  });
});
