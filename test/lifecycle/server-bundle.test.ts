/**
 * The prebuilt server bundle (src/startup/server-bundle.ts): a start from source builds it for
 * the next start, which runs it; it is used only while every input is unchanged. The bundled
 * server's behaviour is tested end to end in graceful-shutdown.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildServerBundle, freshServerBundle } from '../../src/startup/server-bundle.ts';
import { testDbKind } from '../support/database.ts';
import { sparePort } from '../support/ports.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `npm start` as npm runs it (its script in `sh`), until `until` appears in its log; then SIGTERM. */
async function npmStart(env: Record<string, string>, until: RegExp): Promise<{ log: string; code: number | null }> {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const child = spawn('sh', ['-c', start], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      log += chunk.toString();
      if (until.test(log)) resolve();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    void exited.then(() => reject(new Error(`server exited early:\n${log}`)));
  });
  child.kill('SIGTERM');
  return { log, code: await exited };
}

describe('the prebuilt server bundle', () => {
  it.skipIf(testDbKind() !== 'pglite')(
    'is built after a start from source, then runs the next start, serving the same storefront script',
    { timeout: 120_000 },
    async () => {
      const bundleDir = temporaryDir('gcrs-bundle-');
      const dataDir = temporaryDir('gcrs-bundle-data-');
      const unpacked = spawnSync('tar', ['xf', inject('pgliteTemplatePath'), '-C', dataDir]);
      if (unpacked.status !== 0) throw new Error(`tar failed: ${unpacked.stderr.toString()}`);
      const env = { SERVER_BUNDLE_DIR: bundleDir, DATA_DIR: dataDir, DATABASE_URL: '' };

      const first = await npmStart({ ...env, PORT: String(await sparePort()) }, /server bundle built for the next start|bundle build failed/);
      expect(first.log).not.toContain('started from the prebuilt server bundle');
      expect(first.log).toContain('server bundle built for the next start');
      expect(first.code).toBe(0);
      const fresh = freshServerBundle(bundleDir);
      expect(fresh).toBeDefined();

      // The admin's files come from the bundle too: marked here, so the page can only serve the mark
      // if the start read them instead of building the app again.
      expect(fresh?.adminApp.js).toMatch(/\/admin-[0-9a-f]{16}\.js$/);
      writeFileSync(fresh?.adminApp.js ?? '', `${readFileSync(fresh?.adminApp.js ?? '', 'utf8')}\n/*prebuilt-admin*/\n`);

      const port = await sparePort();
      let scriptEtag: string | null = null;
      const second = spawn('sh', ['-c', 'exec node --conditions=@gcrs/source src/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      cleanups.push(() => {
        if (second.exitCode === null) second.kill('SIGKILL');
      });
      let log = '';
      second.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
      second.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => second.on('exit', resolve));
      for (let i = 0; ; i += 1) {
        const response = await fetch(`http://127.0.0.1:${port}/storefront/v1/gifts.js`, { headers: { 'accept-encoding': 'identity' } }).catch(
          () => undefined,
        );
        if (response?.ok) {
          scriptEtag = response.headers.get('etag');
          break;
        }
        if (i > 300 || second.exitCode !== null) throw new Error(`second start failed:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(log).toContain('started from the prebuilt server bundle');
      // The script the bundle's build wrote is the one a build from source makes.
      const { buildStorefrontScript } = await import('@gcrs/storefront/build-script');
      expect(scriptEtag).toBe(`"gifts-${(await buildStorefrontScript()).hash}"`);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const adminPage = await (await fetch(`http://127.0.0.1:${port}/app/`)).text();
      const adminScript = /\/app\/assets\/app\.[0-9a-f]{16}\.js/.exec(adminPage)?.[0];
      expect(adminScript).toBeDefined();
      expect(await (await fetch(`http://127.0.0.1:${port}${adminScript ?? ''}`, { headers: { 'accept-encoding': 'identity' } })).text()).toContain('/*prebuilt-admin*/');

      // A second server on the same directory, from the bundle too, is refused with the lock's
      // own message (one copy of every module: the error is recognised as the lock's).
      const locked = spawnSync(process.execPath, ['--conditions=@gcrs/source', 'src/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', ...env, PORT: String(await sparePort()) },
        encoding: 'utf8',
      });
      expect(locked.status).toBe(1);
      expect(locked.stderr).toContain('in use by another process');
      expect(locked.stderr).not.toContain('Failed to start');

      second.kill('SIGTERM');
      expect(await exited, log).toBe(0);
    },
  );

  it.skipIf(testDbKind() !== 'pglite')('is not used once an input changes, nor when its manifest does not match', { timeout: 120_000 }, async () => {
    const bundleDir = temporaryDir('gcrs-bundle-');
    expect(freshServerBundle(bundleDir)).toBeUndefined();
    const built = await buildServerBundle(bundleDir);
    expect(built).toBeDefined();
    expect(freshServerBundle(bundleDir)?.url).toMatch(/\/run-[0-9a-f]{16}\.mjs$/);

    // An input whose size or times differ from the manifest's record (as an edit, `git checkout`
    // or `npm ci` makes them differ) makes it stale. The manifest is edited rather than a source
    // file touched: other test files run beside this one.
    const manifestPath = join(bundleDir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { inputs: Array<[string, number, number, number]> };
    const ownInput = manifest.inputs.findIndex(([path]) => path === 'src/server.ts');
    expect(ownInput).toBeGreaterThanOrEqual(0);
    // The admin app's sources are inputs as well: an edited page makes the bundle stale.
    expect(manifest.inputs.some(([path]) => path === 'app/src/main.tsx')).toBe(true);
    for (const field of [1, 2, 3] as const) {
      const inputs = manifest.inputs.map((input, i) => (i === ownInput ? input.map((value, f) => (f === field ? Number(value) + 1 : value)) : input));
      writeFileSync(manifestPath, JSON.stringify({ ...manifest, inputs }));
      expect(freshServerBundle(bundleDir), `field ${field}`).toBeUndefined();
    }
    writeFileSync(manifestPath, JSON.stringify(manifest));
    expect(freshServerBundle(bundleDir)).toBeDefined();
    // An input that is gone (a deleted or renamed source file).
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, inputs: [...manifest.inputs, ['src/gone.ts', 1, 1, 1]] }));
    expect(freshServerBundle(bundleDir)).toBeUndefined();

    // A manifest naming another checkout, or a file that is not a bundle, is not used.
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, root: '/elsewhere/' }));
    expect(freshServerBundle(bundleDir)).toBeUndefined();
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, bundle: '../../../../etc/passwd' }));
    expect(freshServerBundle(bundleDir)).toBeUndefined();
    writeFileSync(manifestPath, '{ not json');
    expect(freshServerBundle(bundleDir)).toBeUndefined();
    writeFileSync(manifestPath, JSON.stringify(manifest));
    expect(freshServerBundle(bundleDir)).toBeDefined();
  });
});
