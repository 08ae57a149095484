/**
 * The server as one prebuilt JavaScript file, so `npm start` loads one module instead of ~1,300.
 *
 * Loading the server's modules from source was the largest cost of a start on an existing
 * directory after PGlite (~0.3–0.5 s of the main thread: resolving, reading, type-stripping and
 * compiling each file; docs/performance.md "Start time and memory"). esbuild bundles
 * src/startup/run.ts and everything it imports (our sources, the engine's, and the packages in
 * node_modules except EXTERNAL) into `<dir>/run-<hash>.mjs`, the storefront script beside it
 * (`gifts-<hash>.js`, so a start spawns no esbuild either), the merchant admin's script and style
 * sheet (`admin-<hash>.js|css`: nor does the first `/app/` request), and `manifest.json` lists
 * every input file of all of them with its size and times.
 *
 * - **Used only when exact.** src/main.ts stats every input listed in the manifest (~1,000
 *   files, a few ms) and uses the bundle only if every one is unchanged, the manifest names this
 *   checkout and this format. Anything else (an edited file, `npm ci`, a moved checkout, a
 *   missing or unreadable manifest) runs from source, as before: a bundle is never older than
 *   the code.
 * - **Built after a start from source**, in the background (esbuild's own process), a few
 *   seconds after the server listens: the next start uses it. `npm run build` builds it ahead,
 *   e.g. in a container image's build stage.
 * - **Written atomically**: the bundle under its content hash, then the manifest by rename, so
 *   two servers building at once, or one killed mid-build, never leave a manifest naming a
 *   partial file.
 *
 * `SERVER_BUNDLE=off` turns it off (the server always runs from source and builds nothing);
 * `SERVER_BUNDLE_DIR` moves it (default `node_modules/.cache/gcrs-server`, which `npm ci`
 * clears). This module is loaded before anything else and must stay cheap: Node built-ins only,
 * esbuild imported only to build.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/** The checkout's root (this file is src/startup/server-bundle.ts). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const ENTRY = 'src/startup/run.ts';

/** Raised whenever the build's options change, so a manifest of an older build is not used. */
const FORMAT = 2;

/**
 * Packages loaded from node_modules at run time rather than bundled: each finds files of its own
 * package relative to its own location (PGlite its `.wasm` and `.data`, esbuild its binary, pino
 * and thread-stream their transport workers, ioredis its package.json), which a bundle elsewhere
 * would break. `pg-native` is an optional peer of `pg` that is not installed.
 */
const EXTERNAL = ['@electric-sql/pglite', 'esbuild', 'pino', 'thread-stream', 'ioredis', 'pg-native'];

/** Files that change how inputs resolve without being inputs themselves. */
const RESOLUTION_FILES = ['package.json', 'package-lock.json', 'packages/engine/package.json', 'packages/storefront/package.json'];

type Stamp = [path: string, size: number, mtimeMs: number, ctimeMs: number];

type Manifest = { format: number; root: string; bundle: string; storefrontScript: string; adminApp: { js: string; css: string }; inputs: Stamp[] };

/** A bundle that matches the files on disk: the module to import, the prebuilt storefront script and admin files. */
export type FreshBundle = { url: string; storefrontScript: string; adminApp: { js: string; css: string } };

const BUNDLE_NAME = /^run-[0-9a-f]{16}\.mjs$/;
const SCRIPT_NAME = /^gifts-[0-9a-f]{16}\.js$/;
const CHUNK_NAME = /^gifts-[0-9a-f]{16}\.[a-z]+\.js$/;
const ADMIN_NAME = /^admin-[0-9a-f]{16}\.(js|css)$/;

/** Where the bundle lives: `SERVER_BUNDLE_DIR`, relative to the checkout, or the default. */
export function serverBundleDir(env: NodeJS.ProcessEnv): string {
  return resolve(ROOT, env.SERVER_BUNDLE_DIR ?? 'node_modules/.cache/gcrs-server');
}

/** Whether `env` allows the bundle (`SERVER_BUNDLE=off` does not). */
export function serverBundleEnabled(env: NodeJS.ProcessEnv): boolean {
  return env.SERVER_BUNDLE !== 'off';
}

function stamp(path: string): Stamp | undefined {
  try {
    const stats = statSync(join(ROOT, path));
    return [path, stats.size, stats.mtimeMs, stats.ctimeMs];
  } catch {
    return undefined;
  }
}

function sameStamp(recorded: unknown): boolean {
  if (!Array.isArray(recorded) || typeof recorded[0] !== 'string') return false;
  const now = stamp(recorded[0]);
  return now !== undefined && now[1] === recorded[1] && now[2] === recorded[2] && now[3] === recorded[3];
}

/**
 * The bundle in `dir` if it was built from exactly the files now on disk; otherwise undefined
 * (run from source).
 *
 * @example
 *   const bundle = freshServerBundle(serverBundleDir(process.env));
 *   await import(bundle?.url ?? './startup/run.ts');
 */
export function freshServerBundle(dir: string): FreshBundle | undefined {
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Partial<Manifest>;
  } catch {
    return undefined;
  }
  const { bundle, storefrontScript, adminApp, inputs } = manifest;
  if (manifest.format !== FORMAT || manifest.root !== ROOT || typeof bundle !== 'string' || typeof storefrontScript !== 'string') {
    return undefined;
  }
  if (!BUNDLE_NAME.test(bundle) || !SCRIPT_NAME.test(storefrontScript) || !Array.isArray(inputs) || inputs.length === 0) {
    return undefined;
  }
  if (typeof adminApp?.js !== 'string' || typeof adminApp.css !== 'string' || !ADMIN_NAME.test(adminApp.js) || !ADMIN_NAME.test(adminApp.css)) return undefined;
  if (!inputs.every(sameStamp)) return undefined;
  const paths = [bundle, storefrontScript, adminApp.js, adminApp.css].map((file) => join(dir, file));
  if (!paths.every((path) => existsSync(path))) return undefined;
  const [bundlePath = '', scriptPath = '', adminJs = '', adminCss = ''] = paths;
  return { url: pathToFileURL(bundlePath).href, storefrontScript: scriptPath, adminApp: { js: adminJs, css: adminCss } };
}

/**
 * Our own sources refer to files beside them (`new URL('../../migrations', import.meta.url)`):
 * inside the bundle each keeps its own file's URL, so those paths still point into the checkout.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
      };
    });
  },
};

/**
 * Builds the bundle into `dir` and makes it the one the next start uses; resolves to its path, or
 * to undefined when an input changed while esbuild read it (that build is dropped: the next start
 * runs from source and builds again).
 *
 * @example await buildServerBundle(serverBundleDir(process.env));
 */
export async function buildServerBundle(dir: string): Promise<string | undefined> {
  const { build } = await import('esbuild');
  const { buildStorefrontScript } = await import('@gcrs/storefront/build-script');
  const { buildAppFiles } = await import('../merchant-admin/static.ts');
  const startedAt = Date.now();
  const script = buildStorefrontScript();
  const admin = buildAppFiles();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    conditions: ['@gcrs/source'],
    external: EXTERNAL,
    // The CommonJS packages inside an ES module bundle still call `require` for Node's built-ins.
    banner: { js: "import { createRequire as __gcrsCreateRequire } from 'node:module'; const require = __gcrsCreateRequire(import.meta.url);" },
    plugins: [ownImportMetaUrl],
    metafile: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const output = result.outputFiles?.[0];
  if (output === undefined) throw new Error('esbuild produced no output');
  const { code, hash, metafile, chunks } = await script;
  const { files: adminFiles, inputs: adminInputs } = await admin;
  const paths = new Set([
    // The admin's build, like the storefront's, reads relative to the working directory.
    ...adminInputs.map((path) => resolve(path)),
    ...Object.keys(result.metafile.inputs).map((path) => resolve(ROOT, path)),
    // build-script.ts builds relative to the working directory.
    // (An object `define`, the chunks' names, is a virtual input `<define:…>`, not a file.)
    ...[metafile, ...Object.values(chunks).map((chunk) => chunk.metafile)]
      .flatMap((meta) => Object.keys(meta.inputs))
      .filter((path) => !path.startsWith('<'))
      .map((path) => resolve(path)),
    ...RESOLUTION_FILES.map((path) => resolve(ROOT, path)),
  ]);
  const inputs: Stamp[] = [];
  for (const path of paths) {
    const input = stamp(relative(ROOT, path));
    if (input === undefined || input[2] >= startedAt) return undefined;
    inputs.push(input);
  }
  const name = `run-${createHash('sha256').update(output.contents).digest('hex').slice(0, 16)}.mjs`;
  const scriptName = `gifts-${hash}.js`;
  mkdirSync(dir, { recursive: true });
  const temporary = `.${randomBytes(6).toString('hex')}.tmp`;
  const writeAtomically = (file: string, contents: string | Uint8Array) => {
    writeFileSync(join(dir, temporary), contents);
    renameSync(join(dir, temporary), join(dir, file));
  };
  writeAtomically(name, output.contents);
  writeAtomically(scriptName, code);
  // The first load's on-demand chunks, where loadStorefrontScript looks for them (prebuiltChunkPath).
  const chunkNames = Object.entries(chunks).map(([chunk, asset]) => {
    const chunkName = `gifts-${hash}.${chunk}.js`;
    writeAtomically(chunkName, asset.code);
    return chunkName;
  });
  const adminNames = { js: '', css: '' };
  for (const ext of ['js', 'css'] as const) {
    adminNames[ext] = `admin-${createHash('sha256').update(adminFiles[ext]).digest('hex').slice(0, 16)}.${ext}`;
    writeAtomically(adminNames[ext], adminFiles[ext]);
  }
  const manifest: Manifest = { format: FORMAT, root: ROOT, bundle: name, storefrontScript: scriptName, adminApp: adminNames, inputs };
  writeAtomically('manifest.json', JSON.stringify(manifest));
  removeLeftovers(dir, [name, scriptName, ...chunkNames, adminNames.js, adminNames.css]);
  return join(dir, name);
}

/**
 * Removes older bundles, and temporary files at least a minute old (a build that was killed; a
 * younger one may be another server's build in progress). A start that finds its bundle gone
 * between the check and the import runs from source (src/main.ts).
 */
function removeLeftovers(dir: string, current: string[]): void {
  for (const file of readdirSync(dir)) {
    const path = join(dir, file);
    if ([BUNDLE_NAME, SCRIPT_NAME, CHUNK_NAME, ADMIN_NAME].some((pattern) => pattern.test(file)) && !current.includes(file)) rmSync(path, { force: true });
    const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
    if (/^\.[0-9a-f]{12}\.tmp$/.test(file) && modified < Date.now() - 60_000) {
      rmSync(path, { force: true });
    }
  }
}

// `npm run build`: builds it ahead of the first start (a container image's build stage, say).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildServerBundle(serverBundleDir(process.env));
  process.stdout.write(built ? `server bundle: ${relative(process.cwd(), built)}\n` : 'a source file changed during the build: run it again\n');
  if (built === undefined) process.exitCode = 1;
}
