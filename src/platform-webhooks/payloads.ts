/**
 * The platform's webhook payloads (CONTRACT part two "Platform webhooks"), as its REST
 * webhooks send them: snake_case, 64-bit ids as numbers (kept as digits by
 * lossless-json.ts), money as decimal strings. Each schema turns its payload into the shape
 * the service already takes: an `orders/paid` payload into the Order of CONTRACT "Platform
 * orders", a product into the catalog upsert of CONTRACT "Product and collection". Fields not
 * used are not read (the platform adds fields to its payloads over API versions).
 */
import { textSchema } from '@gcrs/engine';
import { z } from 'zod';
import { imageUrlSchema, INVENTORY_POLICIES } from '../catalog/schemas.ts';
import type { CatalogProduct, ProductStatus } from '../catalog/schemas.ts';
import { timestampInputSchema } from '../http/timestamp.ts';
import { MAX_LINE_QUANTITY } from '../orders/schema.ts';
import type { Order, OrderLine } from '../orders/schema.ts';
import { currencySchema } from '../shops/shop-schemas.ts';
import { decimalToMinorUnits } from './decimal.ts';

/** A platform id: digits (a large one, from lossless-json.ts) or a safe integer. */
export const platformIdSchema = z
  .union([z.string().regex(/^\d{1,20}$/), z.int().nonnegative()], { error: 'Expected a numeric platform id' })
  .transform(String);

const decimalSchema = z.string().regex(/^\s*\d+(\.\d+)?\s*$/, 'Expected a decimal amount such as "19.99"');

/** `properties: [{ name, value }]`; the platform writes values as text, other scalars are taken as their text. */
export const propertySchema = z.object({
  name: textSchema.max(255),
  value: z
    .union([z.string(), z.number(), z.boolean(), z.null()])
    .transform((value) => (value === null ? '' : String(value)))
    .pipe(textSchema.max(10_000)),
});

const lineItemSchema = z.object({
  product_id: platformIdSchema.nullish(),
  variant_id: platformIdSchema.nullish(),
  quantity: z.int().min(1).max(MAX_LINE_QUANTITY),
  price: decimalSchema,
  properties: z.array(propertySchema).max(250).nullish(),
});

const orderPayloadSchema = z.object({
  id: platformIdSchema,
  currency: currencySchema,
  total_price: decimalSchema,
  processed_at: timestampInputSchema.nullish(),
  created_at: timestampInputSchema.nullish(),
  customer: z.object({ id: platformIdSchema }).nullish(),
  line_items: z.array(lineItemSchema).max(1000),
});

/**
 * An `orders/paid` payload → CONTRACT's Order. Lines without a variant (custom items, tips)
 * are left out: they carry no product and are never gift lines. Prices are converted on their
 * digits in the order's currency; an amount the currency cannot hold is a 400 at its path.
 * `completedAt` is `processed_at` (when payment was processed), else `created_at`.
 *
 * @example
 *   platformOrderSchema.parse(payload).lines[0]; // { productId: '632910392', variantId: '808950810', quantity: 1, price: 19900, attributes: { … } }
 */
export const platformOrderSchema = orderPayloadSchema.transform((payload, ctx): Order => {
  const money = (amount: string, path: Array<string | number>): number => {
    const minor = decimalToMinorUnits(amount, payload.currency);
    if (minor === undefined) ctx.addIssue({ code: 'custom', message: `Not an amount in ${payload.currency}`, path, input: amount });
    return minor ?? 0;
  };
  const completedAt = payload.processed_at ?? payload.created_at;
  if (!completedAt) ctx.addIssue({ code: 'custom', message: 'An order needs processed_at or created_at', path: ['processed_at'], input: null });
  const lines: OrderLine[] = [];
  payload.line_items.forEach((item, index) => {
    if (item.variant_id == null || item.product_id == null) return;
    const attributes = Object.fromEntries((item.properties ?? []).map((property) => [property.name, property.value]));
    lines.push({
      productId: item.product_id,
      variantId: item.variant_id,
      quantity: item.quantity,
      price: money(item.price, ['line_items', index, 'price']),
      ...(item.properties ? { attributes } : {}),
    });
  });
  return {
    id: payload.id,
    customerId: payload.customer?.id ?? null,
    completedAt: completedAt ?? new Date(0),
    currency: payload.currency,
    total: money(payload.total_price, ['total_price']),
    lines,
  };
});

const STATUSES: Record<string, ProductStatus> = { active: 'active', draft: 'draft', archived: 'archived', unlisted: 'active' };

/** The catalog's bound (CONTRACT "Product and collection" variant schema); the platform's counts stay far inside. */
const clampQuantity = (quantity: number): number => Math.max(-1_000_000_000, Math.min(1_000_000_000, quantity));

const variantPayloadSchema = z.object({
  id: platformIdSchema,
  title: textSchema.max(255).nullish(),
  inventory_quantity: z.int().nullish(),
  inventory_policy: z
    .string()
    .transform((policy) => policy.toUpperCase())
    .pipe(z.enum(INVENTORY_POLICIES))
    .nullish(),
  /** `null` (explicitly) when the platform does not track the variant's stock: always sellable. */
  inventory_management: z.string().nullish(),
  inventory_item_id: platformIdSchema.nullish(),
  /** In the shop's currency, as a decimal (`"19.99"`); converted with the shop's currency in catalog-topics.ts. */
  price: decimalSchema.nullish(),
});

/**
 * The product's featured image: `image.src`, else the first of `images`, else `featured_image`
 * (a URL, or an object with `src`/`url`, as some API versions write it). A value that is not an
 * http(s) URL is no image, not a refused webhook: the picture is a nicety, the stock is not.
 */
function featuredImage(payload: { image?: unknown; images?: unknown; featured_image?: unknown }): string | null {
  const srcOf = (value: unknown): unknown =>
    typeof value === 'object' && value !== null ? ((value as { src?: unknown; url?: unknown }).src ?? (value as { url?: unknown }).url) : value;
  const candidates = [srcOf(payload.image), ...(Array.isArray(payload.images) ? payload.images.slice(0, 1).map(srcOf) : []), srcOf(payload.featured_image)];
  for (const candidate of candidates) {
    const parsed = imageUrlSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

const productPayloadSchema = z.object({
  id: platformIdSchema,
  title: textSchema.max(255),
  status: z
    .string()
    .transform((status) => status.toLowerCase())
    .refine((status) => Object.hasOwn(STATUSES, status), 'Expected a product status: active, draft, archived or unlisted'),
  variants: z.array(variantPayloadSchema).max(2048),
  image: z.unknown().optional(),
  images: z.unknown().optional(),
  featured_image: z.unknown().optional(),
});

export type PlatformProduct = {
  product: CatalogProduct;
  inventoryItems: Array<{ inventoryItemId: string; variantId: string }>;
  /** Each variant's decimal price, for the shop's currency to turn into minor units. */
  prices: Array<{ variantId: string; amount: string }>;
};

/**
 * A `products/create` or `products/update` payload → one catalog product (its variants as
 * gids, policy upper case) and the inventory item of each variant. An `unlisted` product is
 * sellable, so it is `active` to the catalog; a variant whose stock is not tracked
 * (`inventory_management: null`) can always be sold, so its policy is `CONTINUE`.
 *
 * @example
 *   platformProductSchema.parse(payload).product.variants[0]; // { id: 'gid://shopify/ProductVariant/1', inventoryQuantity: 0, inventoryPolicy: 'DENY', … }
 */
export const platformProductSchema = productPayloadSchema.transform((payload): PlatformProduct => {
  const productId = `gid://shopify/Product/${payload.id}`;
  const variants = payload.variants.map((variant) => ({
    id: `gid://shopify/ProductVariant/${variant.id}`,
    title: variant.title ?? '',
    inventoryQuantity: clampQuantity(variant.inventory_quantity ?? 0),
    inventoryPolicy: variant.inventory_management === null ? ('CONTINUE' as const) : (variant.inventory_policy ?? 'DENY'),
  }));
  const inventoryItems = payload.variants.flatMap((variant) =>
    variant.inventory_item_id == null ? [] : [{ inventoryItemId: variant.inventory_item_id, variantId: `gid://shopify/ProductVariant/${variant.id}` }],
  );
  const prices = payload.variants.flatMap((variant) => (variant.price == null ? [] : [{ variantId: `gid://shopify/ProductVariant/${variant.id}`, amount: variant.price }]));
  return {
    product: { id: productId, title: payload.title, status: STATUSES[payload.status] ?? 'active', imageUrl: featuredImage(payload), variants },
    inventoryItems,
    prices,
  };
});

/** `products/delete`: only the id. */
export const platformProductDeleteSchema = z.object({ id: platformIdSchema });

/** `inventory_levels/update`; `available` is null for an item whose stock is not tracked. */
export const platformInventoryLevelSchema = z.object({
  inventory_item_id: platformIdSchema,
  location_id: platformIdSchema,
  available: z.int().nullable(),
});

/** `app/uninstalled`: the shop object; nothing of it is needed beyond being an object. */
export const platformShopSchema = z.looseObject({});
