/** The human `message` of a 409 `health_warnings` (SPEC: "a human message"). */
import type { HealthWarning } from './health-check.ts';

function describe(warning: HealthWarning): string {
  switch (warning.kind) {
    case 'gift_inventory':
      return warning.level === 'out_of_stock'
        ? `gift ${warning.displayName} is out of stock`
        : `gift ${warning.displayName} is low on stock (${warning.inventoryQuantity} left)`;
    case 'gift_status':
      return warning.inCatalog
        ? `gift ${warning.displayName ?? warning.variantGid} is ${warning.status}`
        : `gift ${warning.variantGid} is not in the catalog (post it to the admin catalog route first)`;
    case 'checkout_config_size':
      return `the shop's live rules with this campaign need ${warning.bytes} bytes of checkout configuration, more than the checkout's ${warning.metafields} metafields of ${warning.limit} bytes hold (disable another campaign or simplify rules)`;
    case 'checkout_input_size':
      return `at ${warning.lines} cart lines the checkout's input would be about ${warning.bytes} bytes, more than the platform's ${warning.limit}, because the live rules ask about ${warning.collections} collections on every line: such carts would get no gift discount (name fewer collections, or disable another campaign)`;
    case 'checkout_excluded':
      return warning.reason === 'market_condition'
        ? `rule ${warning.ruleId} names a market, which the checkout cannot check: its gifts would be charged at checkout (name countries instead)`
        : `rule ${warning.ruleId} needs a discount code, which the checkout cannot see: its gifts would be charged at checkout`;
    case 'trigger_status': {
      const name = warning.productTitle ?? warning.productGid ?? warning.variantGid ?? warning.productId ?? warning.variantId;
      return warning.inCatalog
        ? `trigger ${warning.target} ${name ?? 'unknown'} is ${warning.status}`
        : `trigger ${warning.target} ${name ?? 'unknown'} is not in the catalog`;
    }
  }
}

/**
 * The human `message` of a 409 `health_warnings`.
 *
 * @example
 *   healthMessage([outOfStock]); // 'The campaign has 1 health warning: gift Tote - Blue is out of stock. Fix it, or enable with force=1.'
 */
export function healthMessage(warnings: readonly HealthWarning[]): string {
  const shown = warnings.slice(0, 5).map(describe);
  const more = warnings.length > shown.length ? `; and ${warnings.length - shown.length} more` : '';
  const noun = warnings.length === 1 ? 'warning' : 'warnings';
  const fix = warnings.length === 1 ? 'Fix it' : 'Fix them';
  return `The campaign has ${warnings.length} health ${noun}: ${shown.join('; ')}${more}. ${fix}, or enable with force=1.`;
}
