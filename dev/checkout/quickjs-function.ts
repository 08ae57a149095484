/**
 * Runs the built checkout function inside QuickJS, the engine the platform compiles JS
 * functions to (Javy): a bare QuickJS context with no console, timers, fetch or
 * TextEncoder, the bundle evaluated as an ES module, its `run` export called with the input
 * parsed inside the VM and the result serialised inside it, as the platform's runtime does.
 * `loadMeteredFunctionInQuickJs` does the same in a QuickJS WebAssembly module instrumented
 * to count the instructions it executes (wasm-meter.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RELEASE_SYNC, getQuickJS, newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import type { WasmCounter } from './wasm-meter.ts';
import { METER_EXPORT, meterWasm, wasm } from './wasm-meter.ts';

export type QuickJsFunction = { run(input: unknown): unknown; dispose(): void };

export type Measured = { output: unknown; instructions: number; parts: { input: number; run: number; output: number } };

export type MeteredQuickJsFunction = QuickJsFunction & {
  /** Instructions the module's load took: parse and compile of the source, its top level. */
  loadInstructions: number;
  /**
   * Runs as `run` does and counts the instructions from handing the input text to the VM to
   * reading the output text back, in all and by part: reading the input (copy into the VM and
   * JSON.parse), the function, writing the output (JSON.stringify and copy out).
   */
  measure(input: unknown): Measured;
};

/**
 * @example
 *   const fn = await loadFunctionInQuickJs(code);
 *   fn.run(input); // { operations: [...] }
 */
export async function loadFunctionInQuickJs(code: string): Promise<QuickJsFunction> {
  const { run, dispose } = loadInContext(await getQuickJS(), code, () => 0);
  return { run: (input) => run(input).output, dispose };
}

let meteredQuickJs: Promise<{ quickjs: QuickJSWASMModule; counter: () => number }> | undefined;

/** The QuickJS release build the tests run, with its instruction meter (one per process). */
function loadMeteredQuickJs(): Promise<{ quickjs: QuickJSWASMModule; counter: () => number }> {
  meteredQuickJs ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    const compiled = await wasm.compile(meterWasm(readFileSync(path)));
    let global: WasmCounter | undefined;
    const variant = newVariant(RELEASE_SYNC, {
      emscriptenModule: {
        instantiateWasm(imports: object, onSuccess: (instance: object, module: object) => void) {
          const instance = new wasm.Instance(compiled, imports);
          global = instance.exports[METER_EXPORT] as WasmCounter;
          onSuccess(instance, compiled);
          return instance.exports;
        },
      } as never,
    });
    const quickjs = await newQuickJSWASMModuleFromVariant(variant);
    return {
      quickjs,
      counter: () => {
        if (global === undefined) throw new Error('the metered QuickJS module was not instantiated');
        return Number(global.value);
      },
    };
  })();
  return meteredQuickJs;
}

/**
 * @example
 *   const fn = await loadMeteredFunctionInQuickJs(code);
 *   fn.measure(input).instructions; // 1_234_567
 */
export async function loadMeteredFunctionInQuickJs(code: string): Promise<MeteredQuickJsFunction> {
  const { quickjs, counter } = await loadMeteredQuickJs();
  const before = counter();
  const loaded = loadInContext(quickjs, code, counter);
  const loadInstructions = counter() - before;
  return { run: (input) => loaded.run(input).output, measure: loaded.run, dispose: loaded.dispose, loadInstructions };
}

function loadInContext(quickjs: QuickJSWASMModule, code: string, counter: () => number) {
  const vm: QuickJSContext = quickjs.newContext();
  let exported: QuickJSHandle = vm.unwrapResult(vm.evalCode(code, 'function.js', { type: 'module' }));
  const state = vm.getPromiseState(exported);
  if (state.type === 'fulfilled') {
    if (!state.notAPromise) exported.dispose();
    exported = state.value;
  } else if (state.type === 'rejected') {
    throw new Error(`module failed: ${JSON.stringify(vm.dump(state.error))}`);
  }
  const run = vm.getProp(exported, 'run');
  const json = vm.getProp(vm.global, 'JSON');
  const parse = vm.getProp(json, 'parse');
  const stringify = vm.getProp(json, 'stringify');
  return {
    run(input: unknown): Measured {
      const inputText = JSON.stringify(input);
      const before = counter();
      const text = vm.newString(inputText);
      const parsed = vm.unwrapResult(vm.callFunction(parse, json, text));
      const read = counter();
      const result = vm.unwrapResult(vm.callFunction(run, vm.undefined, parsed));
      const ran = counter();
      const out = vm.unwrapResult(vm.callFunction(stringify, json, result));
      const outputText = vm.getString(out);
      const after = counter();
      for (const handle of [text, parsed, result, out]) handle.dispose();
      const parts = { input: read - before, run: ran - read, output: after - ran };
      return { output: JSON.parse(outputText) as unknown, instructions: after - before, parts };
    },
    dispose() {
      for (const handle of [run, parse, stringify, json, exported]) handle.dispose();
      vm.dispose();
    },
  };
}
