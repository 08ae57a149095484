/**
 * The checkout discount function inside QuickJS (the engine the platform compiles JS
 * functions to): a 200-line cart against a 100-rule shop, through the built bundle's `run`
 * export with the input parsed and the result serialised inside the VM, as on the platform.
 * Prints the bundle size, the configuration size and the time per cart, and the output,
 * configuration and input sizes beside the platform's limits (function-sizes.ts).
 *
 *   npm run bench:function -- [runs]
 */
import { buildFunction } from '../scripts/build-function.ts';
import { functionInput, hundredRuleConfig, twoHundredLineCart } from '../test/support/checkout-shop.ts';
import { loadFunctionInQuickJs } from '../dev/checkout/quickjs-function.ts';
import { printFunctionSizes } from './function-sizes.ts';

const runs = Number(process.argv[2] ?? 200);
const { code, bytes, gzipBytes } = await buildFunction({ write: true });
const built = hundredRuleConfig();
const input = functionInput(built.config, twoHundredLineCart());
const fn = await loadFunctionInQuickJs(code);
for (let i = 0; i < 20; i++) fn.run(input); // warm-up
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  fn.run(input);
  times.push(performance.now() - started);
}
printFunctionSizes(fn);
fn.dispose();
times.sort((a, b) => a - b);
const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(2);
console.log(`bundle: ${(bytes / 1024).toFixed(1)} KB minified, ${(gzipBytes / 1024).toFixed(1)} KB gzip`);
console.log(`configuration: ${built.bytes} bytes for ${built.config.r.length} rules (limit 10000)`);
console.log(`QuickJS, 200-line cart, 100 rules: p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  (${runs} runs, parse + run + stringify)`);
