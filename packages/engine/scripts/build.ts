/**
 * Builds dist/ (ESM JavaScript and .d.ts) from src/ with tsc. dist/ is removed first so
 * that a file deleted from src/ cannot linger in the published package.
 * Run: `npm run build -w @gcrs/engine` (or `-w @gcrs/storefront`, whose build runs this
 * script): it builds the package in the current directory with its tsconfig.build.json.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const packageRoot = process.cwd();
const dist = join(packageRoot, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

// A relative specifier ending in .ts, in quotes ('./ids.ts', "../schema/gid.ts").
const RELATIVE_TS_SPECIFIER = /(['"])(\.{1,2}\/[^'"]*?)\.ts\1/g;

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageRoot, stdio: 'inherit' });

// tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits
// (rewriteRelativeImportExtensions) but not in declarations, and a consumer without
// allowImportingTsExtensions cannot follow a `.ts` specifier. `./x.js` resolves to `x.d.ts`.
for (const entry of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!entry.endsWith('.d.ts')) continue;
  const file = join(dist, entry);
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(RELATIVE_TS_SPECIFIER, '$1$2.js$1');
  if (rewritten !== text) writeFileSync(file, rewritten);
}
