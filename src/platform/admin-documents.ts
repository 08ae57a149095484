/**
 * Every Admin GraphQL document the service sends, in one place (docs/install.md "The stand-in
 * platform"): test/platform/admin-schema.test.ts validates each against the Admin API schema of
 * the pinned version (dev/platform/schema/), so a field the platform does not have fails a test,
 * not a merchant's install. Documents are named operations, so the platform's logs and the
 * stand-in's request record say which one was sent.
 */

/** The shop's name, base currency and timezone, read once at install. */
export const SHOP_QUERY = `query InstallShop { shop { name currencyCode ianaTimezone } }`;

/**
 * The languages the shop publishes to buyers (docs/merchant-admin.md "The shop's languages"): the
 * rule editor offers them for the discount title's translations. Needs `read_locales`.
 */
export const SHOP_LOCALES_QUERY = `query ShopLocales { shopLocales(published: true) { locale primary published } }`;

/**
 * Products per catalog import page, and variants and collections read with each product. The
 * platform refuses a query whose requested cost is over 1,000 points (an object costs 1, a
 * connection 2 plus `first` times its node): 2 + 25 × (1 + 3 + (2 + 10 × 2) + (2 + 5)) = 827, the 3
 * being the featured image (`featuredMedia`, its `preview`, its `image`).
 */
export const IMPORT_PAGE_PRODUCTS = 25;
export const IMPORT_PRODUCT_VARIANTS = 10;
export const IMPORT_PRODUCT_COLLECTIONS = 5;

const VARIANT_FIELDS = `id title price inventoryQuantity inventoryPolicy inventoryItem { id tracked }`;

/**
 * One page of the catalog import: products with their first variants (inventory included) and the
 * collections they belong to. A product with more variants than the page reads gets the rest
 * through PRODUCT_VARIANTS_QUERY.
 */
export const PRODUCTS_QUERY = `query ImportProducts($first: Int!, $after: String, $variants: Int!, $collections: Int!) {
  products(first: $first, after: $after, sortKey: ID) {
    nodes {
      id title status
      featuredMedia { __typename preview { image { url } } }
      variants(first: $variants) { nodes { ${VARIANT_FIELDS} } pageInfo { hasNextPage endCursor } }
      collections(first: $collections) { nodes { id handle } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** The rest of one product's variants. */
export const PRODUCT_VARIANTS_QUERY = `query ImportProductVariants($id: ID!, $after: String) {
  product(id: $id) { variants(first: 250, after: $after) { nodes { ${VARIANT_FIELDS} } pageInfo { hasNextPage endCursor } } }
}`;

/**
 * The shop's gift discount, found by its title among the automatic app discounts
 * (GIFT_DISCOUNT_SEARCH). `discountNodes`, not `automaticDiscountNodes`: the latter is deprecated
 * in 2025-10 ("Use `discountNodes` instead"), and the schema test refuses any deprecated field.
 */
export const FIND_GIFT_DISCOUNT = `query FindGiftDiscount($query: String!) { discountNodes(first: 1, query: $query) { nodes { id } } }`;

/**
 * The platform's search syntax for FIND_GIFT_DISCOUNT: an automatic app discount with that title.
 *
 * @example giftDiscountSearch('Gift with purchase'); // "method:automatic AND type:app AND title:'Gift with purchase'"
 */
export const giftDiscountSearch = (title: string): string => `method:automatic AND type:app AND title:'${title.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** Creates the automatic app discount that runs the gift-discount function. */
export const CREATE_GIFT_DISCOUNT = `mutation CreateGiftDiscount($discount: DiscountAutomaticAppInput!) {
  discountAutomaticAppCreate(automaticAppDiscount: $discount) { automaticAppDiscount { discountId } userErrors { field message } }
}`;

/** Sets metafields (the discount's configuration, a customer's redemption counts). */
export const SET_METAFIELDS = `mutation SetGiftConfig($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message } }
}`;

/**
 * Order editing, to repair a missing gift (docs/repairs.md): begin an edit of the paid order, add
 * the gift variant as a line of its own (`allowDuplicates`: a shopper who bought the gift product
 * keeps their line undiscounted), discount that line, commit without notifying the customer.
 */
export const ORDER_EDIT_BEGIN = `mutation RepairEditBegin($id: ID!) {
  orderEditBegin(id: $id) { calculatedOrder { id } userErrors { field message } }
}`;

export const ORDER_EDIT_ADD_VARIANT = `mutation RepairAddGift($id: ID!, $variantId: ID!, $quantity: Int!) {
  orderEditAddVariant(id: $id, variantId: $variantId, quantity: $quantity, allowDuplicates: true) { calculatedLineItem { id } userErrors { field message } }
}`;

export const ORDER_EDIT_ADD_DISCOUNT = `mutation RepairDiscountGift($id: ID!, $lineItemId: ID!, $discount: OrderEditAppliedDiscountInput!) {
  orderEditAddLineItemDiscount(id: $id, lineItemId: $lineItemId, discount: $discount) {
    addedDiscountStagedChange { id }
    calculatedLineItem { calculatedDiscountAllocations { allocatedAmountSet { presentmentMoney { amount } } discountApplication { __typename id } } }
    userErrors { field message }
  }
}`;

export const ORDER_EDIT_UPDATE_DISCOUNT = `mutation RepairDiscountWholeLine($id: ID!, $discountApplicationId: ID!, $discount: OrderEditAppliedDiscountInput!) {
  orderEditUpdateDiscount(id: $id, discountApplicationId: $discountApplicationId, discount: $discount) { calculatedOrder { id } userErrors { field message } }
}`;

export const ORDER_EDIT_COMMIT = `mutation RepairCommit($id: ID!, $staffNote: String) {
  orderEditCommit(id: $id, notifyCustomer: false, staffNote: $staffNote) { order { id lineItems(last: 50) { nodes { id variant { id } } } } userErrors { field message } }
}`;
