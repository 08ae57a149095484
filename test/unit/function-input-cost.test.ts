/**
 * The discount function's input query against the platform's input query limits (Function
 * APIs, "Input query limits"): a calculated cost of at most 30 — a field returning a
 * `Metafield` 3, `hasAnyTag`/`hasTags`/`inAnyCollection`/`inCollections` 3, the fields inside
 * those 0, `__typename` 0, any other leaf 1 — and at most 3,000 bytes without comments. The
 * configuration's metafields are what the cost allows (docs/checkout-function.md "Several
 * metafields"), and the query reads exactly those.
 */
import { readFileSync } from 'node:fs';
import { CONFIG_METAFIELD_KEYS } from '@gcrs/engine/checkout';
import { parse, print, visit } from 'graphql';
import type { ArgumentNode, FieldNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { INPUT_QUERY_COST_LIMIT, INPUT_QUERY_FILE, inputQueryCost } from '../../scripts/function-input-cost.ts';

const query = readFileSync(INPUT_QUERY_FILE, 'utf8');

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
    expect(cost).toBeLessThanOrEqual(INPUT_QUERY_COST_LIMIT);
    expect(bytes).toBeLessThanOrEqual(3000);
  });

  it('reads the configuration metafields in order (config, config2), and a third would be over the cost', () => {
    expect(discountMetafieldKeys(query)).toEqual([...CONFIG_METAFIELD_KEYS]);
    const third = query.replace(/(config2: metafield[^}]*\})/, '$1\n    config3: metafield(namespace: "$app:gifts", key: "config3") { jsonValue }');
    expect(discountMetafieldKeys(third)).toEqual([...CONFIG_METAFIELD_KEYS, 'config3']);
    expect(inputQueryCost(third)).toBeGreaterThan(INPUT_QUERY_COST_LIMIT);
  });

  it('counts by the table: a metafield 3, a leaf 1, __typename and metafield fields 0', () => {
    expect(inputQueryCost('query Q { discount { discountClasses metafield(key: "k") { jsonValue value type } } }')).toBe(4);
    expect(inputQueryCost('query Q { cart { lines { __typename id quantity } } }')).toBe(2);
    expect(inputQueryCost('query Q($t: [String!]) { cart { buyerIdentity { customer { hasTags(tags: $t) { tag hasTag } } } } }')).toBe(3);
  });
});
