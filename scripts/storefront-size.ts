/**
 * The sizes of the theme script's assets: builds them as the server and `npm run build:embed`
 * do, and prints each one's raw (minified) and gzip size, and the first load's against its
 * goal (CONTRACT part three: what a page loads before any interaction, at most 10,000 bytes of
 * gzip JavaScript, see docs/storefront-script.md), exiting 1 above its ceiling (the goal). `-- --top` lists the biggest inputs of each; the
 * script also fails when zod ends up in a bundle (the storefront must use only the engine's
 * evaluator and planner). Run: `npm run size:storefront`.
 */
import { gzipSync } from 'node:zlib';
import { CHUNK_NAMES, FIRST_LOAD_CEILING_BYTES, FIRST_LOAD_GOAL_BYTES, buildStorefrontScript, firstLoadCases } from '@gcrs/storefront/build-script';
import type { StorefrontAsset } from '@gcrs/storefront/build-script';

/** Gzip at level 9, as the size test and the budget count it. */
export const gzipSize = (code: Uint8Array): number => gzipSync(code, { level: 9 }).byteLength;

const script = await buildStorefrontScript();
/** When each asset loads (docs/storefront-script.md, "What loads when"). */
const WHEN = {
  widgets: 'on demand: the first widget that waits for a shopper',
  progress: 'on demand: once the bar can be seen: its block in the window, or a first press',
  debug: 'on demand: ?svc_debug=1 when the shop allows it',
};
const assets: Array<[string, StorefrontAsset, string]> = [
  ['gifts.js', script, 'first load: before any interaction'],
  ...CHUNK_NAMES.map((name): [string, StorefrontAsset, string] => [`gifts-${name}.js`, script.chunks[name], WHEN[name]]),
];
const top = process.argv.includes('--top');
for (const [name, asset, when] of assets) {
  console.log(`${name.padEnd(18)} ${String(asset.code.byteLength).padStart(6)} B raw  ${String(gzipSize(asset.code)).padStart(6)} B gzip  (${when})`);
  const inputs = Object.entries(Object.values(asset.metafile.outputs)[0]?.inputs ?? {});
  if (top) {
    inputs.sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput);
    for (const [path, { bytesInOutput }] of inputs.slice(0, 15)) console.log(`  ${String(bytesInOutput).padStart(6)} B before minifying  ${path}`);
  }
  const zodBytes = inputs.filter(([path]) => path.includes('node_modules/zod/')).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  if (zodBytes > 0) {
    console.error(`zod is in ${name} (${zodBytes} B): the storefront must import only the engine's evaluator and planner`);
    process.exitCode = 1;
  }
}
const firstLoad = gzipSize(script.code);
const gap = firstLoad - FIRST_LOAD_GOAL_BYTES;
console.log(`first load: ${firstLoad} B gzip; goal ${FIRST_LOAD_GOAL_BYTES} B (${gap > 0 ? `${gap} B over` : `${-gap} B to spare`}); ceiling ${FIRST_LOAD_CEILING_BYTES} B`);
// Before any interaction, by where the bar is (progress-gate.ts): each case against the goal.
for (const { name, assets: fetched, bytes } of firstLoadCases(script)) {
  const over = bytes - FIRST_LOAD_GOAL_BYTES;
  console.log(`before any interaction, ${name}: ${bytes} B gzip (${fetched.join(' + ')}; ${over > 0 ? `${over} B over` : `${-over} B under`} the ${FIRST_LOAD_GOAL_BYTES} B goal)`);
}
if (firstLoad > FIRST_LOAD_CEILING_BYTES) {
  console.error(`the first load grew past its ceiling by ${firstLoad - FIRST_LOAD_CEILING_BYTES} B`);
  process.exitCode = 1;
}
