/**
 * The calculated cost of a function input query by the platform's table (Function APIs, "Input
 * query limits", at most 30): a field returning a `Metafield` 3; `hasAnyTag`, `hasTags`,
 * `inAnyCollection`, `inCollections` 3; the fields inside those and `__typename` 0; any other
 * leaf 1. Used by test/unit/function-input-cost.test.ts and `npm run bench:function`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TypeInfo, buildSchema, getNamedType, isLeafType, parse, visit, visitWithTypeInfo } from 'graphql';
import type { FieldNode } from 'graphql';
import { EXTENSION_DIR } from './app-config.ts';
import { SCHEMA_FILE } from './function-schema.ts';

/** The platform's cap on an input query's calculated cost. */
export const INPUT_QUERY_COST_LIMIT = 30;

/** The discount function's input query. */
export const INPUT_QUERY_FILE = join(EXTENSION_DIR, 'src/cart_lines_discounts_generate_run.graphql');

const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));

const COST_3 = new Set(['hasAnyTag', 'hasTags', 'inAnyCollection', 'inCollections']);
const FREE_INSIDE = new Set(['Metafield', 'HasTagResponse', 'CollectionMembership']);

/**
 * The calculated cost of `document`, by the platform's table.
 *
 * @example inputQueryCost(readFileSync(INPUT_QUERY_FILE, 'utf8')) // 29
 */
export function inputQueryCost(document: string): number {
  const typeInfo = new TypeInfo(schema);
  let cost = 0;
  visit(
    parse(document),
    visitWithTypeInfo(typeInfo, {
      Field(node: FieldNode) {
        const parent = typeInfo.getParentType();
        const type = typeInfo.getType();
        if (node.name.value === '__typename' || parent == null || type == null || FREE_INSIDE.has(parent.name)) return;
        const named = getNamedType(type);
        if (named === undefined) return;
        if (named.name === 'Metafield' || COST_3.has(node.name.value)) cost += 3;
        else if (isLeafType(named)) cost += 1;
      },
    }),
  );
  return cost;
}
