/**
 * `npm run build`: every built artifact of the project, then a check that each one is there
 * (docs/app-configuration.md "npm run build"). Nothing it writes is committed (.gitignore).
 *
 * | Artifact | Where |
 * |---|---|
 * | the engine package (ESM + .d.ts; the CLI's function build imports its `./checkout`) | packages/engine/dist/ |
 * | the storefront package | packages/storefront/dist/ |
 * | the server bundle and the storefront script beside it | node_modules/.cache/gcrs-server/ (SERVER_BUNDLE_DIR) |
 * | the merchant admin (what /app/ serves from memory) | dist/admin/ |
 * | the discount function's module (what the CLI compiles to WebAssembly) | extensions/gift-discount/dist/function.js |
 * | the theme app extension's assets (`npm run build:embed`, when present) | extensions/gift-embed/assets/ |
 *
 *   npm run build
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAppBundle } from '../src/merchant-admin/static.ts';
import { buildServerBundle, serverBundleDir } from '../src/startup/server-bundle.ts';
import { ROOT } from './app-config.ts';
import { FUNCTION_BUNDLE, buildFunction } from './build-function.ts';

export const ADMIN_DIR = join(ROOT, 'dist/admin');

/** One artifact: a file whose presence (non-empty) the build checks at the end. */
export type Artifact = { name: string; path: string };

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(args: string[]): void {
  execFileSync(npm, args, { cwd: ROOT, stdio: 'inherit' });
}

/** Writes the admin's page and assets as /app/ serves them (identity bodies). */
async function writeAdmin(): Promise<string> {
  const bundle = await loadAppBundle();
  rmSync(ADMIN_DIR, { recursive: true, force: true });
  mkdirSync(join(ADMIN_DIR, 'assets'), { recursive: true });
  writeFileSync(join(ADMIN_DIR, 'index.html'), bundle.html);
  let script = '';
  for (const [name, asset] of bundle.assets) {
    writeFileSync(join(ADMIN_DIR, 'assets', name), asset.representations.identity.body);
    if (name.endsWith('.js')) script = join(ADMIN_DIR, 'assets', name);
  }
  return script;
}

/**
 * Builds everything and answers the artifacts it made.
 *
 * @example const artifacts = await buildAll();
 */
export async function buildAll(): Promise<Artifact[]> {
  run(['run', 'build', '-w', '@gcrs/engine']);
  run(['run', 'build', '-w', '@gcrs/storefront']);
  const bundleDir = serverBundleDir(process.env);
  const bundle = await buildServerBundle(bundleDir);
  if (bundle === undefined) throw new Error('a source file changed during the server build: run it again');
  const manifest = JSON.parse(readFileSync(join(bundleDir, 'manifest.json'), 'utf8')) as { storefrontScript: string };
  const admin = await writeAdmin();
  await buildFunction();
  // The theme app extension's assets: its own script, when the checkout has one.
  run(['run', 'build:embed', '--if-present']);
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const embed = scripts['build:embed'] === undefined ? [] : [{ name: 'theme app extension', path: join(ROOT, 'extensions/gift-embed/assets/gifts.js') }];
  return [
    { name: 'engine package', path: join(ROOT, 'packages/engine/dist/checkout-function.js') },
    { name: 'storefront package', path: join(ROOT, 'packages/storefront/dist/index.js') },
    { name: 'server bundle', path: bundle },
    { name: 'storefront script', path: join(bundleDir, manifest.storefrontScript) },
    { name: 'merchant admin', path: admin },
    { name: 'discount function', path: FUNCTION_BUNDLE },
    ...embed,
  ];
}

/** The artifacts that are missing or empty. */
export function missingArtifacts(artifacts: readonly Artifact[]): Artifact[] {
  return artifacts.filter((artifact) => !((statSync(artifact.path, { throwIfNoEntry: false })?.size ?? 0) > 0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const artifacts = await buildAll();
  for (const artifact of artifacts) {
    const size = statSync(artifact.path, { throwIfNoEntry: false })?.size ?? 0;
    console.log(`${artifact.name.padEnd(20)} ${relative(ROOT, artifact.path)} (${(size / 1024).toFixed(1)} KB)`);
  }
  const missing = missingArtifacts(artifacts);
  if (missing.length > 0) {
    console.error(`missing: ${missing.map((artifact) => artifact.name).join(', ')}`);
    process.exitCode = 1;
  }
}
