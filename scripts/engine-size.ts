/**
 * The storefront's cost of @gcrs/engine: bundles evaluate + plan for the browser with
 * esbuild (minified ESM), gzips it and prints the size beside the budget of issue 8
 * (40 KB gzip). Exits 1 above the budget, so CI can run it as a check.
 * Run: `npm run size:engine` (add `--top` to list the biggest inputs).
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET_BYTES = 40 * 1024;

// What a storefront script imports: evaluate a tree, plan a cart and apply the plan.
const ENTRY = `export { evaluateCondition, prepareContext, compileRules, planCart, applyOperations } from '@gcrs/engine';`;

const result = await build({
  stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'js', sourcefile: 'storefront-entry.js' },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  // The source condition bundles src/*.ts (esbuild strips the types), so no build step is
  // needed; dist/*.js is tsc's output of the same modules.
  conditions: ['@gcrs/source'],
  write: false,
  metafile: true,
  logLevel: 'silent',
});

const output = result.outputFiles[0];
if (output === undefined) throw new Error('esbuild produced no output');
const minified = output.contents.byteLength;
const gzipped = gzipSync(output.contents, { level: 9 }).byteLength;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

console.log(`@gcrs/engine evaluate + plan, browser ESM: ${kb(minified)} minified, ${kb(gzipped)} gzip (budget ${kb(BUDGET_BYTES)} gzip)`);

if (process.argv.includes('--top')) {
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0]?.inputs ?? {});
  inputs.sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput);
  for (const [path, { bytesInOutput }] of inputs.slice(0, 15)) console.log(`  ${kb(bytesInOutput).padStart(9)}  ${path}`);
}

if (gzipped > BUDGET_BYTES) {
  console.error(`over budget by ${kb(gzipped - BUDGET_BYTES)}`);
  process.exitCode = 1;
}
