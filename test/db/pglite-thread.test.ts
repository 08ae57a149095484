/**
 * PGlite on its own thread (src/db/pglite-thread.ts, pglite-thread-client.ts), as every data
 * directory is opened: what crosses the thread keeps PGlite's results, errors and transaction
 * semantics, through drizzle as the service uses it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPglite } from '../../src/db/database.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { shops } from '../../src/db/schema.ts';
import { storageRefusalIssue } from '../../src/http/storage-errors.ts';
import { testDbKind } from '../support/database.ts';
import { sparePort } from '../support/ports.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'gcrs-thread-'));
let handle: DatabaseHandle;

beforeAll(async () => {
  if (testDbKind() !== 'pglite') return;
  // The run's migrated template, unpacked: a data directory as `npm start` opens one.
  const unpacked = spawnSync('tar', ['xf', inject('pgliteTemplatePath'), '-C', dataDir]);
  if (unpacked.status !== 0) throw new Error(`tar failed: ${unpacked.stderr.toString()}`);
  handle = await openPglite({ dataDir });
}, 60_000);
afterAll(async () => {
  await handle?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(testDbKind() !== 'pglite')('PGlite on its own thread', () => {
  it('returns values of every kind the service stores, as in-process PGlite does', async () => {
    const result = await handle.db.execute(
      sql`SELECT 1::int AS int, 9007199254740993::int8 AS big, 'ünï' AS text, '{"a":[1,{"b":null}]}'::jsonb AS json,
        '\\x00ff'::bytea AS bytes, true AS flag, NULL::text AS nothing, '2026-11-23T10:00:00.123Z'::timestamptz AS at,
        ARRAY['x','y'] AS list`,
    );
    expect((result as unknown as { rows: unknown[] }).rows[0]).toEqual({
      int: 1,
      big: 9007199254740993n,
      text: 'ünï',
      json: { a: [1, { b: null }] },
      bytes: new Uint8Array([0, 255]),
      flag: true,
      nothing: null,
      // drizzle asks for timestamps as PostgreSQL's text and maps them itself.
      at: '2026-11-23 10:00:00.123+00',
      list: ['x', 'y'],
    });
  });

  it('rebuilds a refusal with its SQLSTATE and detail, which the error mapping reads', async () => {
    const error = await handle.db.execute(sql`SELECT ${'a\u0000b'}::text`).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    const cause = (error as { cause?: { code?: string; message: string } }).cause;
    expect(cause?.code).toBe('22021');
    expect(storageRefusalIssue(error)).toBeDefined();

    await handle.db.insert(shops).values({ id: 'shp_thread_1', domain: 'thread-1.example.com', plan: 'free', currency: 'USD', timezone: 'UTC' });
    const duplicate = await handle.db
      .insert(shops)
      .values({ id: 'shp_thread_1', domain: 'thread-2.example.com', plan: 'free', currency: 'USD', timezone: 'UTC' })
      .then(
        () => undefined,
        (caught: unknown) => (caught as { cause?: Record<string, unknown> }).cause,
      );
    expect(duplicate).toMatchObject({ code: '23505', constraint: expect.any(String), detail: expect.stringContaining('shp_thread_1') });
  });

  it('commits a transaction, rolls back one that throws, and keeps other statements out of an open one', async () => {
    await handle.db.transaction(async (tx) => {
      await tx.insert(shops).values({ id: 'shp_thread_2', domain: 'thread-3.example.com', plan: 'free', currency: 'USD', timezone: 'UTC' });
    });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(shops).values({ id: 'shp_thread_3', domain: 'thread-4.example.com', plan: 'free', currency: 'USD', timezone: 'UTC' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const ids = async () => (await handle.db.select({ id: shops.id }).from(shops).where(sql`${shops.id} LIKE 'shp_thread_%'`)).map((row) => row.id).sort();
    expect(await ids()).toEqual(['shp_thread_1', 'shp_thread_2']);

    // A statement outside the transaction, sent while it is open, waits for it (PGlite runs one
    // transaction at a time, and a statement waits for the open one): it never sees the
    // transaction's change, which is rolled back.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let changed: () => void = () => {};
    // Awaited, not slept on: on a loaded machine 50 ms could pass before the change is made.
    const madeChange = new Promise<void>((resolve) => (changed = resolve));
    const open = handle.db.transaction(async (tx) => {
      await tx.update(shops).set({ domain: 'thread-5.example.com' }).where(eq(shops.id, 'shp_thread_2'));
      changed();
      await held;
      throw new Error('rolled back');
    });
    await madeChange;
    const outside = handle.db.select({ domain: shops.domain }).from(shops).where(eq(shops.id, 'shp_thread_2'));
    release();
    await expect(open).rejects.toThrow('rolled back');
    expect(await outside).toEqual([{ domain: 'thread-3.example.com' }]);
  });

  it('stops a start whose directory PGlite cannot open with exit 1 and PGlite\'s reason, though routes were built meanwhile', { timeout: 60_000 }, () => {
    const broken = mkdtempSync(join(tmpdir(), 'gcrs-thread-broken-'));
    try {
      writeFileSync(join(broken, 'PG_VERSION'), '99\n');
      const run = spawnSync(process.execPath, ['--conditions=@gcrs/source', 'src/main.ts'], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { PATH: process.env.PATH ?? '', DATA_DIR: broken, PORT: '0', SERVER_BUNDLE: 'off' },
        encoding: 'utf8',
        timeout: 50_000,
      });
      expect(run.status, run.stderr).toBe(1);
      // One sentence naming the setting and PGlite's reason, no stack (server.ts, db/open-error.ts).
      expect(run.stderr).toMatch(/^Could not open the database at the data directory .* \(DATA_DIR\): PGlite failed to initialize properly/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).not.toContain('Server listening');
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('creates a fresh directory\'s database in a thread of its own, so the server does not keep initdb\'s memory', { timeout: 300_000 }, async () => {
    // initdb grows PGlite's memory to ~0.7 GB, which a WebAssembly memory never gives back: had
    // it run on the database thread the server keeps, a fresh start would hold ~400 MB more than
    // a start on an existing directory, for good. Right after /healthz the RSS still holds the
    // admin's warm-up build and compression (up to ~1 GB for a few seconds, longer on a busy
    // machine), so the fresh start is polled for up to 60 s until it comes within 200 MB of a
    // start on the run's migrated template (no initdb), read as its lowest RSS over 10 s.
    const existing = mkdtempSync(join(tmpdir(), 'gcrs-thread-existing-'));
    const fresh = join(mkdtempSync(join(tmpdir(), 'gcrs-thread-fresh-')), 'data');
    try {
      const unpacked = spawnSync('tar', ['xf', inject('pgliteTemplatePath'), '-C', existing]);
      if (unpacked.status !== 0) throw new Error(`tar failed: ${unpacked.stderr.toString()}`);
      const existingMb = await lowestRssMb(existing, 10_000, () => false);
      const freshMb = await lowestRssMb(fresh, 60_000, (rssMb) => rssMb < existingMb + 200);
      expect(freshMb, `fresh start ${freshMb} MB, start on an existing directory ${existingMb} MB`).toBeLessThan(existingMb + 200);
    } finally {
      rmSync(existing, { recursive: true, force: true });
      rmSync(join(fresh, '..'), { recursive: true, force: true });
    }
  });

  it('answers concurrent statements in order, each with its own result', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => handle.db.execute(sql`SELECT ${i}::int AS n`)));
    expect(results.map((result) => (result as unknown as { rows: Array<{ n: number }> }).rows[0]?.n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});

/**
 * Starts the server on `dataDir`, waits for /healthz, and returns its lowest RSS in MB, read
 * every 500 ms for `forMs` or until `enough` holds for a reading.
 */
async function lowestRssMb(dataDir: string, forMs: number, enough: (rssMb: number) => boolean): Promise<number> {
  const port = await sparePort();
  const server = spawn(process.execPath, ['--conditions=@gcrs/source', 'src/main.ts'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SERVER_BUNDLE: 'off', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    while (!out.includes('Server listening')) {
      if (server.exitCode !== null) throw new Error(`the server exited: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    let lowest = Infinity;
    for (let poll = 0; poll < forMs / 500 && !enough(lowest); poll += 1) {
      const rssMb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]) / 1024;
      lowest = Math.min(lowest, rssMb);
      if (!enough(lowest)) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return lowest;
  } finally {
    server.kill('SIGTERM');
    if (server.exitCode === null) await once(server, 'exit');
  }
}
