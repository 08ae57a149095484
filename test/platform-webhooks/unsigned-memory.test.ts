/**
 * Issue 20 item 3: unsigned requests must not make an instance buffer hundreds of megabytes.
 * The real server runs as a child process; a client in another process sends 60 concurrent
 * 8 MiB POSTs to /webhooks/platform, and the server's peak resident size (VmHWM, reset just
 * before the flood) may grow by at most 150 MB. Before the fix it grew by ~390 MB (60 bodies
 * of 8 MiB, each also copied once); with the unverified-body budget (32 MiB by default) the
 * expected growth is ~40–70 MB, so the bound leaves a margin of ~2x for GC timing on a busy machine.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { signPlatformBody } from '../../src/orders/platform-signature.ts';
import { startChildServer } from '../support/child-server.ts';
import type { ChildServer } from '../support/child-server.ts';
import { SECRET, URL as WEBHOOK_PATH } from './fixtures.ts';

const CLIENT = fileURLToPath(new URL('./flood-client.ts', import.meta.url));
const MB = 1_000_000;
const BODY_BYTES = 8 * 1024 * 1024;
const MAX_GROWTH = 150 * MB;

/** Runs the flood client in its own process; resolves with how many requests ended how. */
function flood(url: string, count: number, headers: Record<string, string>): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const client = spawn(process.execPath, [CLIENT, JSON.stringify({ url, count, bytes: BODY_BYTES, headers })], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    client.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    client.on('exit', (code) => {
      if (code !== 0) reject(new Error(`flood client exited ${String(code)}`));
      else resolve((JSON.parse(out) as { statuses: Record<string, number> }).statuses);
    });
  });
}

/** Waits until the resident size moves by less than 2 MB over half a second (at most 20 s). */
async function settled(server: ChildServer): Promise<void> {
  let last = server.memory().rss;
  for (let i = 0; i < 40; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = server.memory().rss;
    if (Math.abs(now - last) < 2 * MB) return;
    last = now;
  }
}

describe('POST /webhooks/platform under a flood of large unsigned bodies', () => {
  const servers: ChildServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  const headers = (signature: string | undefined) => ({
    ...(signature === undefined ? {} : { 'x-shopify-hmac-sha256': signature }),
    'x-shopify-shop-domain': 'flood.example.com',
    'x-shopify-topic': 'products/update',
    'x-shopify-webhook-id': 'flood',
  });

  /**
   * A server of its own for each flood: memory a process once grew into stays resident for the
   * next flood to reuse, so a second flood on one server would measure nothing.
   */
  async function settledServer(): Promise<ChildServer> {
    const server = await startChildServer({ PLATFORM_APP_SECRET: SECRET });
    servers.push(server);
    // Every code path of the flood runs once, then the resident size settles.
    await flood(`${server.base}${WEBHOOK_PATH}`, 2, headers(randomBytes(32).toString('base64')));
    await flood(`${server.base}${WEBHOOK_PATH}`, 2, headers(undefined));
    await settled(server);
    return server;
  }

  it.each([
    ['no signature', () => undefined],
    ['a well-formed signature of other bytes', () => randomBytes(32).toString('base64')],
  ])('answers 401 to 60 concurrent 8 MiB bodies with %s, growing by at most 150 MB', { timeout: 180_000 }, async (_name, signature) => {
    const server = await settledServer();
    const before = server.memory().rss;
    server.resetPeak();
    const statuses = await flood(`${server.base}${WEBHOOK_PATH}`, 60, headers(signature()));
    const growth = server.memory().peak - before;
    // Without a signature the 401 is sent before the body is read; Node then discards the body,
    // and a client still writing may see its socket closed (EPIPE) instead of reading the answer.
    const { 401: refused = 0, EPIPE: closed = 0, ECONNRESET: reset = 0, ...other } = statuses;
    expect(other).toEqual({});
    expect(refused + closed + reset).toBe(60);
    if (signature() !== undefined) expect(refused).toBe(60);
    expect(growth, `peak RSS grew by ${Math.round(growth / MB)} MB`).toBeLessThanOrEqual(MAX_GROWTH);

    // A correctly signed body of 8 MiB is still taken after the flood.
    const body = `{"pad":"${'x'.repeat(BODY_BYTES - 11)}"}`;
    const res = await fetch(`${server.base}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers(signPlatformBody(body, SECRET)) },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, ignored: 'unknown_shop' });
  });
});
