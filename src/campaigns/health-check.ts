/**
 * The enable health check (SPEC "POST /campaigns/:id/enable", CONTRACT "Product and
 * collection"): every gift variant and every trigger product or variant of the campaign's
 * enabled rules, checked against the shop's catalog. Any warning fails the check.
 */
import { collectTriggerIds, numericIdOf } from '@gcrs/engine';
import type { Queryable } from '../db/database.ts';
import { findProducts, findVariants } from '../catalog/store.ts';
import type { CatalogProductState, CatalogVariant } from '../catalog/store.ts';
import type { RuleRecord } from './store.ts';

export type WarningStatus = 'draft' | 'archived' | 'deleted';

/** A gift variant that is out of stock or running low (SPEC "Health warning"). */
export type GiftInventoryWarning = {
  kind: 'gift_inventory';
  ruleId: string;
  variantId: string;
  variantGid: string;
  displayName: string;
  productTitle: string;
  inventoryQuantity: number;
  inventoryPolicy: string;
  level: 'out_of_stock' | 'low_stock';
};

/** A gift whose product is draft, archived, deleted, or unknown to the catalog (`deleted`). */
export type GiftStatusWarning = {
  kind: 'gift_status';
  ruleId: string;
  variantId: string;
  variantGid: string;
  displayName: string | null;
  productTitle: string | null;
  status: WarningStatus;
  /** False when the catalog has never heard of the variant: SPEC's `status` is still `deleted`. */
  inCatalog: boolean;
};

/** A product or variant named by a condition whose product is not active. */
export type TriggerStatusWarning = {
  kind: 'trigger_status';
  ruleId: string;
  /** What the condition names: a product, or a variant (then `variantId`/`variantGid` are set). */
  target: 'product' | 'variant';
  productId: string | null;
  productGid: string | null;
  productTitle: string | null;
  variantId: string | null;
  variantGid: string | null;
  status: WarningStatus;
  /** False when the catalog has never heard of the product or variant (`status` is `deleted`). */
  inCatalog: boolean;
};

/**
 * The shop's live rules with this campaign would not fit the checkout function's
 * configuration (CONTRACT "Checkout": at most 10,000 bytes); enabled anyway (`force=1`),
 * the sync keeps the last configuration that fitted, so the new gifts are charged.
 */
export type CheckoutConfigSizeWarning = { kind: 'checkout_config_size'; bytes: number; limit: number; metafields: number };

/**
 * The checkout function's input of a 200-line cart would be over the platform's 128,000 bytes
 * (estimated from the configuration: its metafields, and each collection its rules name asked of
 * every line); the platform then runs no discount for such a cart, so its gifts are charged.
 */
export type CheckoutInputSizeWarning = { kind: 'checkout_input_size'; bytes: number; limit: number; lines: number; collections: number };

/**
 * A rule of this campaign that the checkout function cannot check, so its gifts are charged at
 * checkout (docs/checkout-function.md): a condition on discount codes, which the function's input
 * does not carry, or on markets, whose input field the platform has deprecated.
 */
export type CheckoutExcludedWarning = { kind: 'checkout_excluded'; ruleId: string; reason: 'discount_code_condition' | 'market_condition' };

export type HealthWarning = GiftInventoryWarning | GiftStatusWarning | TriggerStatusWarning | CheckoutConfigSizeWarning | CheckoutInputSizeWarning | CheckoutExcludedWarning;

/** The platform's display name of a variant: the product title, plus the variant's unless it is the default. */
export const displayNameOf = (productTitle: string, variantTitle: string): string =>
  variantTitle === '' || variantTitle === 'Default Title' ? productTitle : `${productTitle} - ${variantTitle}`;

const statusOf = (product: { status: string; deleted: boolean } | undefined): WarningStatus | undefined => {
  if (!product || product.deleted) return 'deleted';
  return product.status === 'draft' || product.status === 'archived' ? product.status : undefined;
};

function giftWarnings(
  rule: RuleRecord,
  variantsById: Map<string, CatalogVariant>,
  lowStockThreshold: number,
): HealthWarning[] {
  const warnings: HealthWarning[] = [];
  for (const gift of rule.giftConfig.gifts) {
    const variantId = numericIdOf(gift.variantId) ?? gift.variantId;
    const variant = variantsById.get(variantId);
    const status = statusOf(variant && { status: variant.productStatus, deleted: variant.productDeleted });
    if (status) {
      warnings.push({
        kind: 'gift_status',
        ruleId: rule.id,
        variantId,
        variantGid: variant?.id ?? gift.variantId,
        displayName: variant ? displayNameOf(variant.productTitle, variant.title) : null,
        productTitle: variant?.productTitle ?? null,
        status,
        inCatalog: variant !== undefined,
      });
    }
    // A deleted or unknown variant has no inventory worth reporting.
    if (!variant || status === 'deleted') continue;
    const quantity = variant.inventoryQuantity;
    const level =
      quantity <= 0 && variant.inventoryPolicy === 'DENY'
        ? 'out_of_stock'
        : quantity > 0 && quantity <= lowStockThreshold
          ? 'low_stock'
          : undefined;
    if (level) {
      warnings.push({
        kind: 'gift_inventory',
        ruleId: rule.id,
        variantId,
        variantGid: variant.id,
        displayName: displayNameOf(variant.productTitle, variant.title),
        productTitle: variant.productTitle,
        inventoryQuantity: quantity,
        inventoryPolicy: variant.inventoryPolicy,
        level,
      });
    }
  }
  return warnings;
}

function triggerWarnings(
  rule: RuleRecord,
  variantsById: Map<string, CatalogVariant>,
  productsById: Map<string, CatalogProductState>,
): HealthWarning[] {
  const warnings: HealthWarning[] = [];
  const { productIds, variantIds } = collectTriggerIds(rule.conditionTree);
  for (const written of productIds) {
    const productId = numericIdOf(written) ?? null;
    const product = productId === null ? undefined : productsById.get(productId);
    const status = statusOf(product);
    if (!status) continue;
    warnings.push({
      kind: 'trigger_status',
      ruleId: rule.id,
      target: 'product',
      productId,
      productGid: product?.id ?? (written.startsWith('gid://') ? written : null),
      productTitle: product?.title ?? null,
      variantId: null,
      variantGid: null,
      status,
      inCatalog: product !== undefined,
    });
  }
  for (const written of variantIds) {
    const variantId = numericIdOf(written) ?? null;
    const variant = variantId === null ? undefined : variantsById.get(variantId);
    const status = statusOf(variant && { status: variant.productStatus, deleted: variant.productDeleted });
    if (!status) continue;
    warnings.push({
      kind: 'trigger_status',
      ruleId: rule.id,
      target: 'variant',
      productId: variant ? (numericIdOf(variant.productId) ?? null) : null,
      productGid: variant?.productId ?? null,
      productTitle: variant?.productTitle ?? null,
      variantId,
      variantGid: variant?.id ?? (written.startsWith('gid://') ? written : null),
      status,
      inCatalog: variant !== undefined,
    });
  }
  return warnings;
}

/**
 * Every warning for the campaign's enabled rules (a disabled rule gives no gift and
 * triggers nothing), in rule order: gifts first, then triggers.
 *
 * @example
 *   const warnings = await checkCampaignHealth(tx, shop.id, campaign.rules, 5);
 *   if (warnings.length > 0) throw new ApiError('health_warnings', { error: 'health_warnings', warnings, message: healthMessage(warnings) });
 */
export async function checkCampaignHealth(
  db: Queryable,
  shopId: string,
  rules: readonly RuleRecord[],
  lowStockThreshold: number,
): Promise<HealthWarning[]> {
  const enabled = rules.filter((rule) => rule.enabled);
  const variantIds = new Set<string>();
  const productIds = new Set<string>();
  for (const rule of enabled) {
    for (const gift of rule.giftConfig.gifts) variantIds.add(numericIdOf(gift.variantId) ?? gift.variantId);
    const triggers = collectTriggerIds(rule.conditionTree);
    for (const id of triggers.variantIds) variantIds.add(numericIdOf(id) ?? id);
    for (const id of triggers.productIds) productIds.add(numericIdOf(id) ?? id);
  }
  const [variants, products] = await Promise.all([
    findVariants(db, shopId, [...variantIds]),
    findProducts(db, shopId, [...productIds]),
  ]);
  const variantsById = new Map(variants.map((v) => [numericIdOf(v.id) ?? v.id, v]));
  const productsById = new Map(products.map((p) => [numericIdOf(p.id) ?? p.id, p]));
  return enabled.flatMap((rule) => once([...giftWarnings(rule, variantsById, lowStockThreshold), ...triggerWarnings(rule, variantsById, productsById)]));
}

/**
 * Each warning of a rule once (issue 23): a rule may name one product twice — as a gid in one
 * condition and as its numeric id in another, or one gift twice — and the merchant would read
 * the same warning twice.
 */
function once(warnings: HealthWarning[]): HealthWarning[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = JSON.stringify([
      warning.kind,
      'target' in warning ? warning.target : null,
      'variantId' in warning ? warning.variantId : null,
      'productId' in warning ? warning.productId : null,
    ]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
