/**
 * Every Admin GraphQL document the service sends is valid against the Admin API schema of the
 * pinned version (dev/platform/schema/admin_2025-10.json.gz, from the platform's own package:
 * docs/install.md), and the stand-in platform's answer to each is exactly what the schema's
 * executor makes of it (no field that does not exist or was not selected, no null the schema
 * forbids, no enum value it lacks). Documents are collected from the source, so a new one is
 * checked without being listed here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SUBSCRIPTION_CANCEL } from '../../src/billing/platform-subscription.ts';
import * as documents from '../../src/platform/admin-documents.ts';
import type { PlatformStandin } from '../../dev/platform/platform.ts';
import { adminSchema, answerErrors, deprecatedUses, documentErrors } from '../support/admin-schema.ts';
import { startTestPlatform } from '../support/platform-standin.ts';

const SRC = new URL('../../src/', import.meta.url).pathname;

const DOCUMENTS_MODULE = 'platform/admin-documents.ts';

/** The shared module's documents, and every template literal elsewhere in src/ that starts a named operation. */
function collectDocuments(): Array<{ file: string; document: string }> {
  const found = (Object.values(documents) as unknown[])
    .filter((value): value is string => typeof value === 'string' && /^(query|mutation)\s/.test(value))
    .map((document) => ({ file: DOCUMENTS_MODULE, document }));
  for (const entry of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts') || entry === DOCUMENTS_MODULE) continue;
    const text = readFileSync(join(SRC, entry), 'utf8');
    for (const match of text.matchAll(/`\s*((?:query|mutation)\s+[A-Z]\w*[\s\S]*?)`/g)) found.push({ file: entry, document: match[1] ?? '' });
  }
  return found;
}

const operationName = (document: string) => (parse(document).definitions[0] as OperationDefinitionNode).name?.value;

describe('the service\'s Admin GraphQL documents', () => {
  const all = collectDocuments();

  it('are found in the source, the shared module\'s all among them', () => {
    const names = all.map((d) => operationName(d.document));
    for (const value of Object.values(documents)) if (typeof value === 'string') expect(names).toContain(operationName(value));
    expect(adminSchema().getQueryType()?.name).toBe('QueryRoot');
  });

  it.each(all.map((d) => [operationName(d.document), d.file, d.document]))('%s (%s) is valid against the 2025-10 schema', (_name, _file, document) => {
    expect(documentErrors(document)).toEqual([]);
  });

  it.each(all.map((d) => [operationName(d.document), d.file, d.document]))('%s (%s) selects nothing deprecated in 2025-10', (_name, _file, document) => {
    expect(deprecatedUses(document)).toEqual([]);
  });

  it('a deprecated field is caught by the same check', () => {
    expect(deprecatedUses('query X { automaticDiscountNodes(first: 1) { nodes { id } } }')).toEqual([
      'The field QueryRoot.automaticDiscountNodes is deprecated. Use `discountNodes` instead.',
    ]);
  });

  it('a misspelt field or a wrong argument type is refused by the same check', () => {
    expect(documentErrors('query X { shop { name currency } }')).not.toEqual([]);
    expect(documentErrors('query X { products(first: "ten") { nodes { id } } }')).not.toEqual([]);
  });
});

describe('the stand-in\'s answers to them', () => {
  let platform: PlatformStandin;
  const domain = 'schema-check.myshopify.com';
  beforeAll(async () => {
    platform = await startTestPlatform('schema-secret');
    platform.addShop({ domain, accessTokens: new Set(['shpat_schema_check_0000000000']) });
    platform.orderEditing.addOrder(domain, { id: '820982911946154508', lineItems: [{ variantId: 1001000, quantity: 1 }] });
    platform.locales.locales.set(domain, [{ locale: 'en', primary: true, published: true }, { locale: 'pt-BR', primary: false, published: true }, { locale: 'de', primary: false, published: false }]);
    const catalog = platform.catalog.seed(domain, 30, 12);
    expect(catalog.products).toHaveLength(30);
  });
  afterAll(() => platform.close());

  const send = (query: string, variables: Record<string, unknown>) =>
    fetch(`${platform.url}/admin/api/2025-10/graphql.json`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-shopify-access-token': 'shpat_schema_check_0000000000' }, body: JSON.stringify({ query, variables }) });

  /** The last answer's value at `path` (the order edit's ids, from one mutation to the next). */
  const answered = (path: string[]): unknown => path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], platform.requests.at(-1)?.answer?.body);
  const edit: { calculatedOrder?: unknown; line?: unknown } = {};
  const metafield = (ownerId: string) => ({ ownerId, namespace: '$app:gifts', key: 'config', type: 'json', value: '{}' });
  const cases: Array<[string, string, () => Record<string, unknown>]> = [
    ['shop', documents.SHOP_QUERY, () => ({})],
    ['shop locales', documents.SHOP_LOCALES_QUERY, () => ({})],
    ['products', documents.PRODUCTS_QUERY, () => ({ first: documents.IMPORT_PAGE_PRODUCTS, after: null, variants: documents.IMPORT_PRODUCT_VARIANTS, collections: documents.IMPORT_PRODUCT_COLLECTIONS })],
    ['product variants', documents.PRODUCT_VARIANTS_QUERY, () => ({ id: 'gid://shopify/Product/1001', after: null })],
    ['create discount', documents.CREATE_GIFT_DISCOUNT, () => ({ discount: { title: 'Gift with purchase', functionId: 'fn', startsAt: new Date().toISOString(), discountClasses: ['PRODUCT'], metafields: [] } })],
    ['find discount', documents.FIND_GIFT_DISCOUNT, () => ({ query: documents.giftDiscountSearch('Gift with purchase') })],
    ['cancel a subscription that is not the shop\'s', APP_SUBSCRIPTION_CANCEL, () => ({ id: 'gid://shopify/AppSubscription/999999' })],
    ['begin an order edit', documents.ORDER_EDIT_BEGIN, () => ({ id: 'gid://shopify/Order/820982911946154508' })],
    ['add the gift', documents.ORDER_EDIT_ADD_VARIANT, () => ((edit.calculatedOrder = answered(['data', 'orderEditBegin', 'calculatedOrder', 'id'])), { id: edit.calculatedOrder, variantId: 'gid://shopify/ProductVariant/1001000', quantity: 1 })],
    ['discount the gift line', documents.ORDER_EDIT_ADD_DISCOUNT, () => ((edit.line = answered(['data', 'orderEditAddVariant', 'calculatedLineItem', 'id'])), { id: edit.calculatedOrder, lineItemId: edit.line, discount: { percentValue: 100, description: 'Free gift' } })],
    [
      'discount the whole gift line',
      documents.ORDER_EDIT_UPDATE_DISCOUNT,
      () => ({
        id: edit.calculatedOrder,
        discountApplicationId: answered(['data', 'orderEditAddLineItemDiscount', 'calculatedLineItem', 'calculatedDiscountAllocations', '0', 'discountApplication', 'id']),
        discount: { percentValue: 100, description: 'Free gift' },
      }),
    ],
    ['commit the order edit', documents.ORDER_EDIT_COMMIT, () => ({ id: edit.calculatedOrder, staffNote: 'Gift added' })],
    ['commit it again (userErrors)', documents.ORDER_EDIT_COMMIT, () => ({ id: edit.calculatedOrder, staffNote: null })],
    ['begin an edit of an unknown order (userErrors)', documents.ORDER_EDIT_BEGIN, () => ({ id: 'gid://shopify/Order/1' })],
    ['set metafields', documents.SET_METAFIELDS, () => ({ metafields: [metafield(platform.discounts.discounts.get(domain)?.[0]?.id ?? ''), metafield('gid://shopify/Customer/7')] })],
  ];

  it.each(cases)('%s: answered as the schema says', async (_name, query, variables) => {
    const res = await send(query, variables());
    expect(res.status).toBe(200);
    const record = platform.requests.at(-1);
    expect(record?.answer?.body).toHaveProperty('data');
    expect(record && answerErrors(record)).toEqual([]);
  });

  it('the order edit above was committed: the gift line discounted on the order, the customer not notified', () => {
    const order = platform.orderEditing.ordersOf(domain).get('820982911946154508');
    expect(order?.lineItems.at(-1)).toMatchObject({ variantId: '1001000', quantity: 1, discount: { percentValue: 100 } });
    expect(order?.edits).toEqual([{ notifyCustomer: false, staffNote: 'Gift added', committedAt: expect.any(Number) }]);
  });

  it('the check catches an answer that is not what the schema says', async () => {
    platform.install.faults.inject({ kind: 'missing', path: ['shop', 'currencyCode'] });
    await send(documents.SHOP_QUERY, {});
    const record = platform.requests.at(-1);
    expect(record && answerErrors(record)).not.toEqual([]);
  });
});
