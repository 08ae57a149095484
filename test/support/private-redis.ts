/**
 * A Redis of the test's own on a spare loopback port (never the shared one), which a test may
 * stop, pause, and start again. Needs `redis-server` on the PATH (`hasRedisServer`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sparePort } from './ports.ts';

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;


export type PrivateRedis = {
  readonly url: string;
  /** Runs redis-cli against it and returns its output, trimmed. */
  cli(...args: string[]): string;
  start(): Promise<void>;
  /** `save`: write the data set to disk first, so the next start loads it again. */
  stop(mode?: 'save' | 'nosave'): void;
  /** Stops it and removes its directory. */
  remove(): void;
};

/**
 * A Redis that is not started yet: call start().
 *
 * @example
 *   const redis = await createPrivateRedis(); await redis.start();
 *   const t = await createTestApp({ REDIS_URL: redis.url });
 */
export async function createPrivateRedis(): Promise<PrivateRedis> {
  const port = await sparePort();
  const dir = mkdtempSync(join(tmpdir(), 'gcrs-redis-'));
  const cli = (...args: string[]): string =>
    execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' }).trim();
  const stop = (mode: 'save' | 'nosave' = 'nosave') => {
    spawnSync('redis-cli', ['-p', String(port), 'shutdown', mode]);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    cli,
    async start() {
      execFileSync('redis-server', [
        '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
        '--daemonize', 'yes', '--dir', dir, '--pidfile', join(dir, 'redis.pid'), '--logfile', join(dir, 'redis.log'),
      ]);
      for (let i = 0; i < 50; i += 1) {
        if (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG') return;
        await sleep(100);
      }
      throw new Error('redis-server did not start');
    },
    stop,
    remove() {
      stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
