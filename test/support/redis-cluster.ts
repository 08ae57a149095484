/**
 * A Redis Cluster of the test's own: three masters on spare loopback ports, no replicas, each
 * with its cluster bus on a spare port of its own (`cluster-port`, Redis 7), its data and
 * cluster config in one temporary directory. Needs `redis-server` and `redis-cli` on the PATH
 * (`hasRedisServer`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sparePort } from './ports.ts';

export type RedisCluster = {
  /** `host:port` of each master, comma-separated: a REDIS_CLUSTER_NODES value. */
  readonly nodes: string;
  readonly ports: readonly number[];
  /** Runs redis-cli against the node on `port` and returns its output, trimmed. */
  cli(port: number, ...args: string[]): string;
  /** Stops the node on `port` (its cluster config stays; its data goes). */
  stopNode(port: number): void;
  /** Starts it again and waits until every node reports `cluster_state:ok`. */
  startNode(port: number): Promise<void>;
  /** Errors the nodes answered since they started, by error code (INFO errorstats), summed. */
  errorCounts(): Record<string, number>;
  /** Stops every node and removes the directory. */
  remove(): void;
};

/** Distinct spare ports: the next call of sparePort may return one already taken here. */
async function sparePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await sparePort());
  return [...ports];
}

async function until(what: string, ready: () => boolean): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (ready()) return;
    await sleep(100);
  }
  throw new Error(`redis cluster: ${what}`);
}

/**
 * Starts the three nodes, joins them with `redis-cli --cluster create` and resolves once every
 * node reports `cluster_state:ok`. Call remove() at the end, also when a test fails.
 *
 * @example
 *   const cluster = await startRedisCluster();
 *   const t = await createTestApp({ REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes });
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const [p1, p2, p3, b1, b2, b3] = await sparePorts(6);
  const ports = [p1, p2, p3] as number[];
  const busPorts = [b1, b2, b3] as number[];
  const dir = mkdtempSync(join(tmpdir(), 'gcrs-redis-cluster-'));
  const cli = (port: number, ...args: string[]): string =>
    execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' }).trim();
  const remove = () => {
    for (const port of ports) spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'shutdown', 'nosave']);
    rmSync(dir, { recursive: true, force: true });
  };
  const startServer = (port: number) => {
    execFileSync('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
      '--cluster-enabled', 'yes', '--cluster-port', String(busPorts[ports.indexOf(port)]),
      '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '2000',
      '--daemonize', 'yes', '--dir', dir, '--pidfile', join(dir, `redis-${port}.pid`), '--logfile', join(dir, `redis-${port}.log`),
    ]);
  };
  const answers = (port: number) => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG';
  const clusterOk = () => ports.every((port) => answers(port) && cli(port, 'cluster', 'info').includes('cluster_state:ok'));
  try {
    ports.forEach(startServer);
    await until('a node did not start', () => ports.every(answers));
    execFileSync('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
    });
    await until('cluster_state never became ok', clusterOk);
  } catch (error) {
    remove();
    throw error;
  }
  return {
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(','),
    ports,
    cli,
    stopNode(port) {
      spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'shutdown', 'nosave']);
    },
    async startNode(port) {
      startServer(port);
      await until('cluster_state never became ok again', clusterOk);
    },
    errorCounts() {
      const counts: Record<string, number> = {};
      for (const port of ports) {
        for (const match of cli(port, 'info', 'errorstats').matchAll(/^errorstat_([A-Z]+):count=(\d+)/gm)) {
          const [, code = '', count = '0'] = match;
          counts[code] = (counts[code] ?? 0) + Number(count);
        }
      }
      return counts;
    },
    remove,
  };
}
