import * as z from 'zod';
import { LEAF_SCHEMAS, LEAF_TYPES } from './leaf-node.ts';
import type { LeafType } from './leaf-node.ts';
import { conditionNodeSchema } from './condition-node.ts';

type JsonSchema = Record<string, unknown>;

/**
 * The definition name of a leaf type, e.g. 'cart.subtotal_gte' -> 'CartSubtotalGteLeaf'.
 *
 * @example leafDefinitionName('country.in') // 'CountryInLeaf'
 */
export function leafDefinitionName(type: LeafType): string {
  const words = type.split(/[._]/);
  return `${words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')}Leaf`;
}

/**
 * The recursive JSON Schema of a condition tree, for documentation only (validation is
 * {@link conditionNodeSchema}'s job). The leaf definitions come from the leaf Zod schemas
 * through z.toJSONSchema, so they cannot drift from what the API accepts.
 * `refPrefix` lets an OpenAPI document hoist the definitions into `components/schemas`.
 *
 * @example
 * const { $defs } = buildConditionNodeJsonSchema('#/components/schemas/');
 * Object.assign(openapi.components.schemas, $defs);
 */
export function buildConditionNodeJsonSchema(refPrefix = '#/$defs/'): {
  $ref: string;
  $defs: Record<string, JsonSchema>;
} {
  const ref = (name: string) => ({ $ref: `${refPrefix}${name}` });
  const $defs: Record<string, JsonSchema> = {};
  const leafRefs: JsonSchema[] = [];
  // OpenAPI's discriminator: which definition each `type` value selects (no trial of every branch).
  const mapping: Record<string, string> = { AND: ref('AndNode').$ref, OR: ref('OrNode').$ref, NOT: ref('NotNode').$ref };
  for (const type of LEAF_TYPES) {
    const { $schema: _dialect, ...body } = z.toJSONSchema(LEAF_SCHEMAS[type], { io: 'input' });
    const name = leafDefinitionName(type);
    $defs[name] = body;
    leafRefs.push(ref(name));
    mapping[type] = ref(name).$ref;
  }
  const childrenOf = (type: 'AND' | 'OR', description: string): JsonSchema => ({
    type: 'object',
    description,
    properties: {
      type: { type: 'string', const: type },
      children: { type: 'array', items: ref('ConditionNode') },
    },
    required: ['type', 'children'],
    additionalProperties: false,
  });
  $defs['AndNode'] = childrenOf('AND', 'Every child must match; empty children never matches.');
  $defs['OrNode'] = childrenOf('OR', 'At least one child matches; empty children never matches.');
  $defs['NotNode'] = {
    type: 'object',
    description: 'Inverts its single child.',
    properties: { type: { type: 'string', const: 'NOT' }, child: ref('ConditionNode') },
    required: ['type', 'child'],
    additionalProperties: false,
  };
  $defs['ConditionNode'] = {
    description: 'A condition tree node: a combinator or a leaf, discriminated by `type`.',
    oneOf: [ref('AndNode'), ref('OrNode'), ref('NotNode'), ...leafRefs],
    discriminator: { propertyName: 'type', mapping },
  };
  return { $ref: `${refPrefix}ConditionNode`, $defs };
}

/**
 * Self-contained JSON Schema (draft 2020-12) of a condition tree. Its `$id` makes the
 * internal `#/$defs/...` references resolve against this schema even when it is embedded
 * in a bigger document.
 */
export const conditionNodeJsonSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:gcrs:engine:condition-node',
  ...buildConditionNodeJsonSchema(),
};

// Zod's documented hook for schemas it cannot describe itself: once this module is loaded,
// z.toJSONSchema of any object containing a condition tree embeds the recursive schema
// above. It lives here, not beside conditionNodeSchema, so that evaluating and planning
// never build the documentation schema; whoever generates JSON Schema imports this
// module's exports anyway. A copy each time: Zod hands the result to `override`
// callbacks, which may rewrite it in place. (A JSON round trip rather than structuredClone,
// which is not an ECMAScript global: QuickJS and the package's no-DOM build lack it.)
conditionNodeSchema._zod.toJSONSchema = () => JSON.parse(JSON.stringify(conditionNodeJsonSchema)) as JsonSchema;
