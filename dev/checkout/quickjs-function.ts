/**
 * Runs the built checkout function inside QuickJS, the engine the platform compiles JS
 * functions to (Javy): a bare QuickJS context with no console, timers, fetch or
 * TextEncoder, the bundle evaluated as an ES module, its `run` export called with the input
 * parsed inside the VM and the result serialised inside it, as the platform's runtime does.
 */
import { getQuickJS } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';

export type QuickJsFunction = { run(input: unknown): unknown; dispose(): void };

/**
 * @example
 *   const fn = await loadFunctionInQuickJs(code);
 *   fn.run(input); // { operations: [...] }
 */
export async function loadFunctionInQuickJs(code: string): Promise<QuickJsFunction> {
  const quickjs = await getQuickJS();
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
    run(input) {
      const text = vm.newString(JSON.stringify(input));
      const parsed = vm.unwrapResult(vm.callFunction(parse, json, text));
      const result = vm.unwrapResult(vm.callFunction(run, vm.undefined, parsed));
      const out = vm.unwrapResult(vm.callFunction(stringify, json, result));
      const value = JSON.parse(vm.getString(out)) as unknown;
      for (const handle of [text, parsed, result, out]) handle.dispose();
      return value;
    },
    dispose() {
      for (const handle of [run, parse, stringify, json, exported]) handle.dispose();
      vm.dispose();
    },
  };
}
