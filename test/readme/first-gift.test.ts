/**
 * The README is the truth for a newcomer: its "Your first gift" block runs here, as written,
 * against a real `npm start` on a fresh embedded data directory, and the server is then stopped
 * the way the README says (SIGTERM to `npm start`), which must drain and exit 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../support/database.ts';
import { sparePort } from '../support/ports.ts';

const root = join(import.meta.dirname, '..', '..');

function firstGiftScript(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = /<!-- first-gift:start -->([\s\S]*?)<!-- first-gift:end -->/.exec(readme)?.[1];
  if (section === undefined) throw new Error('README.md has no first-gift block');
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
  expect(blocks.length).toBeGreaterThan(0);
  return blocks.join('\n');
}

async function healthy(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/healthz`)).ok;
  } catch {
    return false;
  }
}

// The README's flow runs the embedded database, so it runs once, in the PGlite project.
describe.skipIf(testDbKind() === 'postgres')("README: your first gift, from npm start to Ctrl-C", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gcrs-readme-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs every command of the README against npm start, then SIGTERM drains and exits 0', async () => {
    const port = await sparePort();
    const base = `http://127.0.0.1:${port}`;
    const server = spawn('npm', ['start'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: 'quick-start-admin-token', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let serverOutput = '';
    server.stdout.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    try {
      // PGlite's first start migrates a fresh directory: seconds alone, much longer beside a busy suite.
      const deadline = Date.now() + 90_000;
      while (!(await healthy(base))) {
        if (Date.now() > deadline) throw new Error(`npm start did not become healthy:\n${serverOutput}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }

      const script = `set -euo pipefail\n${firstGiftScript().replaceAll('http://127.0.0.1:3000', base)}`;
      // Twice: a newcomer who runs the block again carries on with the shop the first run made.
      for (const attempt of [1, 2]) {
        const run = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
        expect(run.stderr, `run ${attempt}`).toBe('');
        expect(run.status).toBe(0);
        expect(run.stdout).toContain('{"ok":true}');
        expect(run.stdout).toMatch(/\{"ok":true,"campaign":\{"id":"cmp_\w+","enabled":true,"isDraft":false\}\}/);
        expect(run.stdout).toMatch(attempt === 1 ? /\[ '\$50 or more' \]/ : /\[ '\$50 or more', '\$50 or more' \]/);
        expect(run.stdout).toMatch(/type: 'add',\s+variantId: 'gid:\/\/shopify\/ProductVariant\/11',\s+quantity: 1/);
        expect(run.stdout).toMatch(/_svc_campaign_id: 'cmp_\w+'/);
      }
      const listed = (await (await fetch(`${base}/admin/v1/shops`, { headers: { authorization: 'Bearer quick-start-admin-token' } })).json()) as { shops: unknown[] };
      expect(listed.shops).toHaveLength(1);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // The server itself is gone, not only npm: nothing answers on the port any more.
    expect(await healthy(base)).toBe(false);
  }, 180_000);
});
