/**
 * Builds gifts.js, the theme script: src/script/main.ts and everything it imports (the
 * engine's evaluator and planner, not its Zod schemas) as one minified IIFE for browsers.
 * Node-only (esbuild); the server calls it once per process (src/storefront/script-route.ts)
 * and `npm run size:storefront` measures its output.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';

export type StorefrontScript = {
  /** The bundle's bytes (UTF-8 JavaScript). */
  code: Buffer;
  /** First 16 hex digits of the SHA-256 of `code`: the versioned URL's name. */
  hash: string;
  metafile: Metafile;
};

const ENTRY = fileURLToPath(new URL('../src/script/main.ts', import.meta.url));

/** ES2020: every evergreen browser since 2020 (the platform's themes support no older ones). */
export const SCRIPT_TARGET = ['es2020'];

/**
 * @example const { code, hash } = await buildStorefrontScript();
 */
export async function buildStorefrontScript(): Promise<StorefrontScript> {
  // Loaded only to build: a server started with a prebuilt script never loads esbuild at start.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: SCRIPT_TARGET,
    // The engine's sources (no build step), as the rest of the repo resolves them.
    conditions: ['@gcrs/source'],
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild produced no output');
  const code = Buffer.from(output.contents);
  return { code, hash: scriptHash(code), metafile: result.metafile };
}

/**
 * The versioned URL's name of a built script: the first 16 hex digits of its SHA-256.
 *
 * @example scriptHash(code) // '3f2a9c0d1e4b5a67'
 */
export function scriptHash(code: Uint8Array): string {
  return createHash('sha256').update(code).digest('hex').slice(0, 16);
}
