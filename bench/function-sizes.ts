/**
 * The function benchmark's sizes beside the platform's limits (docs/checkout-function.md
 * "Sizes"): the output of a 200-line cart (150 gift lines, the platform's line ids) through the
 * bundle in QuickJS, and without merging; the configuration of 100 depth-4 rules per metafield;
 * the input query's cost; the largest 200-line input the tests build.
 */
import { readFileSync } from 'node:fs';
import { CHECKOUT_CONFIG_LIMIT_BYTES, FUNCTION_INPUT_LIMIT_BYTES, FUNCTION_OUTPUT_LIMIT_BYTES } from '@gcrs/engine/checkout';
import type { QuickJsFunction } from '../dev/checkout/quickjs-function.ts';
import { INPUT_QUERY_COST_LIMIT, INPUT_QUERY_FILE, inputQueryCost } from '../scripts/function-input-cost.ts';
import { deepShopConfig, fullInput, manyGiftsCart, perRuleBytes } from '../test/support/checkout-deep-shop.ts';
import type { DiscountResult as Result } from '../test/support/checkout-deep-shop.ts';
import { functionInput, hundredRuleConfig } from '../test/support/checkout-shop.ts';


/**
 * Prints the sizes, one line each, with the limit beside.
 *
 * @example printFunctionSizes(await loadFunctionInQuickJs(code));
 */
export function printFunctionSizes(fn: QuickJsFunction): void {
  const input = functionInput(hundredRuleConfig().config, manyGiftsCart(), { tags: ['vip'] });
  const result = fn.run(input) as Result;
  const targets = result.operations.flatMap((op) => op.productDiscountsAdd.candidates).reduce((n, c) => n + c.targets.length, 0);
  console.log(
    `output, 200 lines (150 gift lines, ${targets} targets): ${Buffer.byteLength(JSON.stringify(result))} bytes (limit ${FUNCTION_OUTPUT_LIMIT_BYTES}); ` +
      `${perRuleBytes(input, result)} bytes as one candidate per rule`,
  );
  const deep = deepShopConfig(100);
  const parts = [...deep.metafields.map((m) => `${m.key} ${m.bytes}`), `vars ${deep.variablesBytes}`].join(', ');
  console.log(`configuration, 100 rules of depth 4: ${deep.bytes} bytes, ${parts} (limit ${CHECKOUT_CONFIG_LIMIT_BYTES} per metafield), fits: ${deep.fits}`);
  console.log(`input query: cost ${inputQueryCost(readFileSync(INPUT_QUERY_FILE, 'utf8'))} (limit ${INPUT_QUERY_COST_LIMIT})`);
  const inputs = [0, 1, 2].map((collections) => Buffer.byteLength(JSON.stringify(fullInput(collections))));
  console.log(`input, 200 lines, both metafields full: ${inputs.map((bytes, n) => `${bytes} bytes with ${n} collection${n === 1 ? '' : 's'} asked`).join(', ')} (limit ${FUNCTION_INPUT_LIMIT_BYTES})`);
}
