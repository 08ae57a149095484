/**
 * The enable health check's warnings as the merchant reads them (issue 23): each once, each with
 * the name of its rule, products by their titles. Pure: test/unit/words.test.ts reads it.
 */
import type { paths } from './api/schema.d.ts';

// As api/client.ts has it; read from the schema so a Node test can import this file (client.ts needs `window`).
type HealthWarning = paths['/app/api/v1/campaigns/{id}/enable']['post']['responses'][409]['content']['application/json']['warnings'][number];

const STATUS_WORDS = { draft: 'is a draft', archived: 'is archived', deleted: 'was deleted' } as const;

/** One warning as a sentence; `ruleName` gives a rule's name by id (undefined when unknown). */
export function warningSentence(warning: HealthWarning, ruleName: (ruleId: string) => string | undefined): string {
  const rule = 'ruleId' in warning ? ruleName(warning.ruleId) : undefined;
  const who = rule === undefined ? 'A rule' : `Rule “${rule}”`;
  switch (warning.kind) {
    case 'gift_inventory':
      return warning.level === 'out_of_stock'
        ? `${who}: its gift ${warning.displayName} is out of stock.`
        : `${who}: its gift ${warning.displayName} is low on stock (${warning.inventoryQuantity} left).`;
    case 'gift_status':
      return warning.inCatalog
        ? `${who}: its gift ${warning.displayName ?? `variant ${warning.variantId}`} ${STATUS_WORDS[warning.status]}.`
        : `${who}: its gift, variant ${warning.variantId}, is not in the catalog.`;
    case 'trigger_status': {
      const what = warning.productTitle ?? (warning.target === 'variant' ? `variant ${warning.variantId ?? ''}` : `product ${warning.productId ?? ''}`).trim();
      return warning.inCatalog
        ? `${who}: ${what}, which its conditions name, ${STATUS_WORDS[warning.status]}.`
        : `${who}: ${what}, which its conditions name, is not in the catalog.`;
    }
    case 'checkout_excluded':
      return warning.reason === 'market_condition'
        ? `${who} names a market, which the checkout cannot check: its gift would be charged at checkout. Name countries instead.`
        : `${who} needs a discount code, which the checkout cannot see: its gift would be charged at checkout.`;
    case 'checkout_input_size':
      return `The live rules ask about ${warning.collections} collections on every cart line: a cart of ${warning.lines} lines would be too large for the checkout, which would then give no gift discount. Name fewer collections.`;
    default:
      return 'The checkout configuration would be too large: some rules would not apply at checkout.';
  }
}

/** The warnings as sentences, each once, in the server's order. */
export function warningSentences(warnings: readonly HealthWarning[], ruleName: (ruleId: string) => string | undefined): string[] {
  return [...new Set(warnings.map((warning) => warningSentence(warning, ruleName)))];
}
