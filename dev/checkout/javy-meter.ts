/**
 * Calibrates the instruction meter against Javy, the platform's compiler for JS functions:
 * runs the checkout function, with the bench's 200-line input, inside a Javy plugin (a QuickJS
 * WebAssembly module as Javy builds it: QuickJS through rquickjs, compiled by Rust's
 * toolchain, pre-initialised) metered by wasm-meter.ts, and prints the instructions of each
 * part beside those of the QuickJS module the tests run. No Javy plugin ships with the
 * project; any Javy 7 plugin (exports `compile-src`, `invoke`, `cabi_realloc`) will do, e.g.
 * the `dist/*.plugin.wasm` of an npm package that publishes one.
 *
 *   node --conditions=@gcrs/source dev/checkout/javy-meter.ts <plugin.wasm>
 */
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { build } from 'esbuild';
import { FUNCTION_ENTRY, buildFunction } from '../../scripts/build-function.ts';
import { functionInput, hundredRuleConfig, twoHundredLineCart } from '../../test/support/checkout-shop.ts';
import { withUuidLineIds } from '../../test/support/cart-line-ids.ts';
import { loadMeteredFunctionInQuickJs } from './quickjs-function.ts';
import type { WasmCounter } from './wasm-meter.ts';
import { METER_EXPORT, meterWasm, wasm } from './wasm-meter.ts';

type Memory = { buffer: ArrayBuffer };

/** Instructions of one `invoke` of `source` (compiled to bytecode first, not counted) in a fresh instance. */
async function invokeInJavy(plugin: Uint8Array, source: string): Promise<number> {
  const compiled = await wasm.compile(meterWasm(plugin));
  const wasi = new WASI({ version: 'preview1', args: [], env: {}, returnOnExit: true });
  // Host functions a plugin may import besides WASI: none is called by this source.
  const env = new Proxy({}, { get: () => () => 0 });
  const instance = new wasm.Instance(compiled, { wasi_snapshot_preview1: wasi.wasiImport, env });
  const memory = instance.exports.memory as Memory;
  wasi.initialize({ exports: { memory } } as never);
  const counter = instance.exports[METER_EXPORT] as WasmCounter;
  const realloc = instance.exports.cabi_realloc as (old: number, size: number, align: number, next: number) => number;
  const bytes = Buffer.from(source);
  const at = realloc(0, 0, 1, bytes.length);
  new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
  const ret = (instance.exports['compile-src'] as (ptr: number, len: number) => number)(at, bytes.length);
  const view = new DataView(memory.buffer);
  const [ok, ptr, len] = [view.getUint8(ret), view.getUint32(ret + 4, true), view.getUint32(ret + 8, true)];
  if (ok !== 0) throw new Error(`compile failed: ${Buffer.from(memory.buffer, ptr, len).toString()}`);
  const before = counter.value;
  (instance.exports.invoke as (...args: number[]) => void)(ptr, len, 0, 0, 0);
  return Number(counter.value - before);
}

const pluginPath = process.argv[2];
if (pluginPath === undefined) throw new Error('usage: javy-meter.ts <plugin.wasm>');
const plugin = readFileSync(pluginPath);
const bundle = await build({ entryPoints: [FUNCTION_ENTRY], bundle: true, format: 'iife', globalName: 'fn', platform: 'neutral', target: 'es2020', minify: true, conditions: ['@gcrs/source'], write: false });
const code = bundle.outputFiles[0]?.text ?? '';
const input = JSON.stringify(functionInput(hundredRuleConfig().config, withUuidLineIds(twoHundredLineCart())));
// Each step adds one part; the differences are the parts. The input is a string constant of the bytecode.
const steps = [
  `const text = ${JSON.stringify(input)}; globalThis.out = text.length;`,
  `const text = ${JSON.stringify(input)}; globalThis.out = JSON.parse(text);`,
  `const text = ${JSON.stringify(input)}; globalThis.out = fn.run(JSON.parse(text));`,
  `const text = ${JSON.stringify(input)}; globalThis.out = JSON.stringify(fn.run(JSON.parse(text)));`,
];
const counts: number[] = [];
for (const step of steps) counts.push(await invokeInJavy(plugin, `${code}\n${step}`));
const [load = 0, parsed = 0, ran = 0, written = 0] = counts;
const m = (n: number) => `${(n / 1e6).toFixed(2)}M`;
console.log(`Javy plugin: load (bytecode, top level) ${m(load)}, input ${m(parsed - load)}, function ${m(ran - parsed)}, output ${m(written - ran)}; all ${m(written)}`);
const metered = await loadMeteredFunctionInQuickJs((await buildFunction({ write: false })).code);
const { parts, instructions } = metered.measure(JSON.parse(input));
console.log(`quickjs-emscripten (tests): input ${m(parts.input)}, function ${m(parts.run)}, output ${m(parts.output)}; all ${m(instructions)}`);
console.log(`function part, Javy / tests: ${((ran - parsed) / parts.run).toFixed(2)}`);
