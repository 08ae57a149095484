/**
 * The service as the child of a dev command (`npm run storefront:dev`, `npm run dev:local`): an
 * embedded database in a fresh temporary folder, loopback, an admin token of its own, and the
 * command's settings. `stop(code)` closes what the command added (last added first), stops the
 * service, removes the folder and exits; Ctrl-C and an unexpected exit of the service stop too.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitHealthy } from './ports.ts';

const root = join(import.meta.dirname, '..', '..');

export type DevService = {
  url: string;
  dataDir: string;
  adminToken: string;
  /** Runs at stop, before the service is stopped; the last added runs first. */
  onStop(close: () => Promise<void>): void;
  /** Resolves once `/healthz` answers (two minutes at most). */
  healthy(): Promise<void>;
  stop(code: number): Promise<void>;
};

/** @example const service = startDevService({ port: 3000, dataDirPrefix: 'gcrs-dev-', env: { PLATFORM_APP_KEY: 'dev' } }); */
export function startDevService(options: { port: number; dataDirPrefix: string; env: Record<string, string> }): DevService {
  const dataDir = mkdtempSync(join(tmpdir(), options.dataDirPrefix));
  const adminToken = randomBytes(18).toString('base64url');
  const url = `http://127.0.0.1:${options.port}`;
  const closers: Array<() => Promise<void>> = [];
  const child = spawn(process.execPath, ['--conditions=@gcrs/source', 'src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // A developer's webhook receiver runs on this machine too (docs/storefront-dev.md).
      WEBHOOK_ALLOWED_HOSTS: process.env.WEBHOOK_ALLOWED_HOSTS ?? '127.0.0.1,localhost',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = false;
  const done = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const close of closers.reverse()) await close().catch(() => undefined);
    if (!exited) child.kill('SIGTERM');
    await done;
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  void done.then((code) => {
    if (!stopping) {
      process.stderr.write(`The service stopped (exit code ${code}).\n`);
      void stop(1);
    }
  });

  return {
    url,
    dataDir,
    adminToken,
    onStop: (close) => void closers.push(close),
    healthy: () => waitHealthy(url, () => exited, 120_000),
    stop,
  };
}
