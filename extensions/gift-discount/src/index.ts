// The extension's module for the platform's CLI: every target's entry, by the name its
// `export` in shopify.extension.toml gives (kebab-case of the function name).
export { cartLinesDiscountsGenerateRun } from './cart_lines_discounts_generate_run.ts';
