/**
 * The discount function's input query against the platform's input query limits (Function
 * APIs, "Input query limits"): a calculated cost of at most 30 — a field returning a
 * `Metafield` 3, `hasAnyTag`/`hasTags`/`inAnyCollection`/`inCollections` 3, the fields inside
 * those 0, `__typename` 0, any other leaf 1 — and at most 3,000 bytes without comments. The
 * configuration's metafields are what the cost allows (docs/checkout-function.md "Several
 * metafields"), and the query reads exactly those.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_METAFIELD_KEYS } from '@gcrs/engine/checkout';
import { TypeInfo, buildSchema, getNamedType, isLeafType, parse, print, visit, visitWithTypeInfo } from 'graphql';
import type { ArgumentNode, FieldNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { EXTENSION_DIR } from '../../scripts/app-config.ts';
import { SCHEMA_FILE } from '../../scripts/function-schema.ts';

const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
const query = readFileSync(join(EXTENSION_DIR, 'src/cart_lines_discounts_generate_run.graphql'), 'utf8');

const COST_3 = new Set(['hasAnyTag', 'hasTags', 'inAnyCollection', 'inCollections']);
const FREE_INSIDE = new Set(['Metafield', 'HasTagResponse', 'CollectionMembership']);

/** The calculated cost of `document`, by the platform's table. */
function inputQueryCost(document: string): number {
  const typeInfo = new TypeInfo(schema);
  let cost = 0;
  visit(
    parse(document),
    visitWithTypeInfo(typeInfo, {
      Field(node: FieldNode) {
        const parent = typeInfo.getParentType();
        const type = typeInfo.getType();
        if (node.name.value === '__typename' || parent === null || type === null || FREE_INSIDE.has(parent.name)) return;
        const named = getNamedType(type);
        if (named.name === 'Metafield' || COST_3.has(node.name.value)) cost += 3;
        else if (isLeafType(named)) cost += 1;
      },
    }),
  );
  return cost;
}

/** The `key` argument of each metafield the query reads on `discount`. */
function discountMetafieldKeys(document: string): string[] {
  const keys: string[] = [];
  visit(parse(document), {
    Field(node: FieldNode) {
      if (node.name.value !== 'discount') return;
      for (const selection of node.selectionSet?.selections ?? []) {
        if (selection.kind !== 'Field' || selection.name.value !== 'metafield') continue;
        const key = selection.arguments?.find((a: ArgumentNode) => a.name.value === 'key')?.value;
        if (key?.kind === 'StringValue') keys.push(key.value);
      }
    },
  });
  return keys;
}

describe('the input query within the platform limits', () => {
  it('costs at most 30 and is at most 3,000 bytes without comments', () => {
    const cost = inputQueryCost(query);
    const bytes = Buffer.byteLength(print(parse(query)));
    console.log(`input query: cost ${cost} of 30, ${bytes} bytes of 3000 (printed, no comments)`);
    expect(cost).toBeLessThanOrEqual(30);
    expect(bytes).toBeLessThanOrEqual(3000);
  });

  it('reads the configuration metafields in order (config, config2), and a third would be over the cost', () => {
    expect(discountMetafieldKeys(query)).toEqual([...CONFIG_METAFIELD_KEYS]);
    const third = query.replace(/(config2: metafield[^}]*\})/, '$1\n    config3: metafield(namespace: "$app:gifts", key: "config3") { jsonValue }');
    expect(discountMetafieldKeys(third)).toEqual([...CONFIG_METAFIELD_KEYS, 'config3']);
    expect(inputQueryCost(third)).toBeGreaterThan(30);
  });

  it('counts by the table: a metafield 3, a leaf 1, __typename and metafield fields 0', () => {
    expect(inputQueryCost('query Q { discount { discountClasses metafield(key: "k") { jsonValue value type } } }')).toBe(4);
    expect(inputQueryCost('query Q { cart { lines { __typename id quantity } } }')).toBe(2);
    expect(inputQueryCost('query Q($t: [String!]) { cart { buyerIdentity { customer { hasTags(tags: $t) { tag hasTag } } } } }')).toBe(3);
  });
});
