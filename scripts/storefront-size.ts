/**
 * The size of gifts.js, the theme script (issue 10: at most 45 KB gzip for the whole
 * bundle): builds it as the server does, gzips it and prints the size beside the budget,
 * exiting 1 above it. `-- --top` lists the biggest inputs; the script also fails when zod
 * ends up in the bundle (the storefront must use only the engine's evaluator and planner).
 * Run: `npm run size:storefront`.
 */
import { gzipSync } from 'node:zlib';
import { buildStorefrontScript } from '@gcrs/storefront/build-script';

export const STOREFRONT_BUDGET_BYTES = 45 * 1024;

const { code, metafile } = await buildStorefrontScript();
const gzipped = gzipSync(code, { level: 9 }).byteLength;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`gifts.js (IIFE, minified): ${kb(code.byteLength)} minified, ${kb(gzipped)} gzip (budget ${kb(STOREFRONT_BUDGET_BYTES)} gzip)`);

const inputs = Object.entries(Object.values(metafile.outputs)[0]?.inputs ?? {});
if (process.argv.includes('--top')) {
  inputs.sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput);
  for (const [path, { bytesInOutput }] of inputs.slice(0, 20)) console.log(`  ${kb(bytesInOutput).padStart(9)}  ${path}`);
}
const zodBytes = inputs.filter(([path]) => path.includes('node_modules/zod/')).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
if (zodBytes > 0) {
  console.error(`zod is in the bundle (${kb(zodBytes)}): the storefront must import only the engine's evaluator and planner`);
  process.exitCode = 1;
}
if (gzipped > STOREFRONT_BUDGET_BYTES) {
  console.error(`over budget by ${kb(gzipped - STOREFRONT_BUDGET_BYTES)}`);
  process.exitCode = 1;
}
