/**
 * The checkout discount function inside QuickJS (the engine the platform compiles JS
 * functions to): a 200-line cart against a 100-rule shop, through the built bundle's `run`
 * export with the input parsed and the result serialised inside the VM, as on the platform.
 * Prints the bundle size, the configuration size, the time per cart, the output, configuration
 * and input sizes beside the platform's limits (function-sizes.ts), and the WebAssembly
 * instructions per cart beside the platform's limit.
 *
 *   npm run bench:function -- [runs]
 */
import { buildFunction } from '../scripts/build-function.ts';
import { compactRules } from '@gcrs/engine/checkout';
import type { GiftFunctionLine } from '@gcrs/engine/checkout';
import { functionInput, hundredRuleConfig, plainLine, twoHundredLineCart } from '../test/support/checkout-shop.ts';
import { withUuidLineIds } from '../test/support/cart-line-ids.ts';
import { loadFunctionInQuickJs, loadMeteredFunctionInQuickJs } from '../dev/checkout/quickjs-function.ts';
import { printFunctionSizes } from './function-sizes.ts';

/** The platform's instruction limit for a cart of up to 200 lines, and the project's goal (25 %). */
const INSTRUCTION_LIMIT = 11_000_000;
const INSTRUCTION_GOAL = INSTRUCTION_LIMIT / 4;

const runs = Number(process.argv[2] ?? 200);
const { code, bytes, gzipBytes } = await buildFunction({ write: true });
const built = hundredRuleConfig();

async function timeSection(): Promise<void> {
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
  console.log(`configuration: ${built.bytes} bytes for ${compactRules(built.config).length} rules (limit 10000)`);
  console.log(`QuickJS, 200-line cart, 100 rules: p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  (${runs} runs, parse + run + stringify)`);
}

/**
 * Executed WebAssembly instructions (wasmtime fuel, as the platform's runner counts) of one
 * run in the metered QuickJS module: a 200-line cart with the platform's line ids
 * (`gid://shopify/CartLine/<uuid>`) against the 100-rule shop. Deterministic: no warm-up needed.
 */
async function instructionSection(): Promise<void> {
  const cart = withUuidLineIds(twoHundredLineCart());
  const fn = await loadMeteredFunctionInQuickJs(code);
  const m = (n: number) => `${(n / 1e6).toFixed(2)}M`;
  const share = (n: number) => `${((100 * n) / INSTRUCTION_LIMIT).toFixed(0)} %`;
  const carts: Array<[string, GiftFunctionLine[]]> = [
    ['200-line cart (uuid line ids), 4 gift lines', cart],
    ['200-line cart, no gift line', withUuidLineIds(Array.from({ length: 200 }, (_, n) => plainLine(n, `${1 + (n % 20)}.00`)))],
    ['2-line cart, 1 gift line', [...cart.slice(3, 4), ...cart.slice(196, 197)]],
  ];
  for (const [name, lines] of carts) {
    const { instructions, parts } = fn.measure(functionInput(built.config, lines));
    console.log(
      `instructions, ${name}, 100 rules: ${m(instructions)} = ${share(instructions)} of the ${m(INSTRUCTION_LIMIT)} limit ` +
        `(goal ≤ ${m(INSTRUCTION_GOAL)}, 25 %): input ${m(parts.input)}, function ${m(parts.run)} (${share(parts.run)}), output ${m(parts.output)}`,
    );
  }
  console.log(`instructions, module load (parse + compile of the source, top level; the platform loads precompiled bytecode): ${m(fn.loadInstructions)}`);
  fn.dispose();
}

await timeSection();
await instructionSection();
