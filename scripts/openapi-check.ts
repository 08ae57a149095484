/**
 * `npm run openapi:check`: proves clients can be generated from the three OpenAPI documents.
 *
 * 1. Builds the app in-process (an embedded database in a temp folder, no server) and asks it
 *    for `/api/v1/openapi.json`, `/admin/v1/openapi.json` and the merchant admin's
 *    `/app/api/v1/openapi.json`: the documents checked are the documents served.
 * 2. Lints each with Redocly under `openapi/redocly.yaml` (recommended-strict: 0 errors, 0 warnings).
 * 3. Generates TypeScript types from each with openapi-typescript.
 * 4. Type-checks `openapi/quick-start.ts`, the README's calls made with those types.
 * 5. Checks that the merchant admin's committed `app/src/api/schema.d.ts` is what the app's
 *    document generates today (`npm run app:types` rewrites it).
 *
 * Everything generated goes to `openapi/generated/` (git-ignored). Exits non-zero on any failure.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext } from '../src/context.ts';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'openapi', 'generated');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (command: string, args: string[]) => execFileSync(command, args, { cwd: root, stdio: 'inherit' });

async function fetchDocuments(): Promise<Record<'public' | 'admin' | 'app', string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gcrs-openapi-'));
  const adminToken = randomBytes(24).toString('hex');
  const config = loadConfig({ ADMIN_TOKEN: adminToken, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PLATFORM_APP_SECRET: randomBytes(24).toString('hex') });
  const ctx = await createAppContext(config);
  try {
    const app = await buildApp(ctx);
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`);
      return JSON.stringify(res.json(), null, 2);
    };
    const documents = {
      public: await get('/api/v1/openapi.json'),
      admin: await get('/admin/v1/openapi.json', { authorization: `Bearer ${adminToken}` }),
      app: await get('/app/api/v1/openapi.json'),
    };
    await app.close();
    return documents;
  } finally {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const documents = await fetchDocuments();
mkdirSync(out, { recursive: true });
for (const [name, text] of Object.entries(documents)) {
  const file = join(out, `${name}.json`);
  writeFileSync(file, text);
  run(bin('redocly'), ['lint', file, '--config', join(root, 'openapi', 'redocly.yaml'), '--max-problems', '50']);
  run(bin('openapi-typescript'), [file, '--output', join(out, `${name}.d.ts`)]);
}
run(bin('tsc'), ['-p', join(root, 'openapi', 'tsconfig.json')]);
run(process.execPath, ['--conditions=@gcrs/source', join(root, 'scripts', 'app-api-types.ts'), '--check']);
console.log('openapi:check: the three documents lint clean, generate types, the quick-start calls type-check and the app types are current');
