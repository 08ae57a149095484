/**
 * Builds the checkout discount function (extensions/gift-discount) into one ES module,
 * `extensions/gift-discount/dist/function.js` (git-ignored), and prints its size. The
 * platform's toolchain compiles such a module to a QuickJS WebAssembly module (Javy): no
 * Node built-in, no timers, no fetch, no TextEncoder; the entry is a named export (`run`,
 * and `cartLinesDiscountsGenerateRun` as the extension's `export` names it).
 *
 *   npm run build:function
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { BuildOptions } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FUNCTION_ENTRY = join(root, 'extensions/gift-discount/src/cart_lines_discounts_generate_run.ts');
export const FUNCTION_BUNDLE = join(root, 'extensions/gift-discount/dist/function.js');

/** How the function's code is bundled: also for tests that run a piece of it in QuickJS as the platform would. */
export const FUNCTION_BUILD_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  // QuickJS implements ES2023; the platform's Javy is QuickJS.
  target: 'es2020',
  minify: true,
  conditions: ['@gcrs/source'],
  write: false,
} as const satisfies BuildOptions;

/**
 * The bundle's text (also written to FUNCTION_BUNDLE when `write`).
 *
 * @example const { code, bytes } = await buildFunction({ write: false });
 */
export async function buildFunction(options: { write: boolean } = { write: true }): Promise<{ code: string; bytes: number; gzipBytes: number }> {
  const result = await build({ ...FUNCTION_BUILD_OPTIONS, entryPoints: [FUNCTION_ENTRY], legalComments: 'none' });
  const code = result.outputFiles[0]?.text ?? '';
  if (options.write) {
    mkdirSync(dirname(FUNCTION_BUNDLE), { recursive: true });
    writeFileSync(FUNCTION_BUNDLE, code);
  }
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { bytes, gzipBytes } = await buildFunction();
  console.log(`${FUNCTION_BUNDLE.slice(root.length + 1)}: ${(bytes / 1024).toFixed(1)} KB minified, ${(gzipBytes / 1024).toFixed(1)} KB gzip`);
}
