import * as z from 'zod';
import { LEAF_SCHEMAS, LEAF_TYPES, isLeafType } from './leaf-node.ts';
import type { LeafNode } from './leaf-node.ts';

// The one place the tree type is written by hand: TypeScript cannot infer a recursive
// type from a schema, and the schema below is iterative rather than z.lazy (see there).
export type AndNode = { type: 'AND'; children: ConditionNode[] };
export type OrNode = { type: 'OR'; children: ConditionNode[] };
export type NotNode = { type: 'NOT'; child: ConditionNode };
export type CombinatorNode = AndNode | OrNode | NotNode;
export type ConditionNode = CombinatorNode | LeafNode;
export type ConditionType = ConditionNode['type'];

export const COMBINATOR_TYPES = ['AND', 'OR', 'NOT'] as const;

/** Every `type` a node may have: the combinators, then the leaves in SPEC order. */
export const CONDITION_TYPES: readonly ConditionType[] = [...COMBINATOR_TYPES, ...LEAF_TYPES];

// Combinators are validated as shells: their children are checked one node at a time by
// the walker below, never by nested schemas, so depth costs heap, not call stack.
// Empty `children` is accepted: SPEC calls it malformed and never matching, which is the
// evaluator's job (it answers false), not a save-time error.
const andShellSchema = z.object({ type: z.literal('AND'), children: z.array(z.unknown()) });
const orShellSchema = z.object({ type: z.literal('OR'), children: z.array(z.unknown()) });
const notShellSchema = z.object({ type: z.literal('NOT'), child: z.unknown() });

type PathKey = string | number;

/** Outcome of {@link validateConditionTree}: the parsed tree, or the first issue found. */
export type ConditionTreeValidation =
  | { ok: true; tree: ConditionNode }
  | { ok: false; issue: z.core.$ZodIssue };

// A pending node. `at` is its place under the parent (a child index or 'child'); the
// parent chain rebuilds the path only when an issue is reported, so a deep tree does not
// carry one path array per node (that would be quadratic in depth).
type Frame = {
  input: unknown;
  parent: Frame | undefined;
  at: number | 'child' | undefined;
  holder: Record<PathKey, unknown> | unknown[];
  slot: PathKey;
};

function pathOf(frame: Frame, tail: readonly PropertyKey[]): PropertyKey[] {
  const reversed: PropertyKey[] = [];
  for (let i = tail.length - 1; i >= 0; i--) reversed.push(tail[i] as PropertyKey);
  for (let f: Frame | undefined = frame; f !== undefined; f = f.parent) {
    if (f.at === 'child') reversed.push('child');
    else if (typeof f.at === 'number') reversed.push(f.at, 'children');
  }
  return reversed.reverse();
}

function setSlot(holder: Record<PathKey, unknown> | unknown[], slot: PathKey, value: unknown) {
  if (Array.isArray(holder)) holder[Number(slot)] = value;
  else holder[slot] = value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shellSchemaFor(type: string) {
  if (type === 'AND') return andShellSchema;
  if (type === 'OR') return orShellSchema;
  if (type === 'NOT') return notShellSchema;
  return isLeafType(type) ? LEAF_SCHEMAS[type] : undefined;
}

/**
 * Validates a whole condition tree with an explicit stack (no recursion, any depth) and
 * returns a parsed copy (unknown keys stripped, values otherwise kept as given, so a
 * comma-separated `customer.tag_in` string stays a string) or the first issue in
 * document order, with its full path inside the tree.
 *
 * @example
 * validateConditionTree({ type: 'NOT', child: { type: 'cart.subtotal_gte', value: 5000 } })
 * // { ok: true, tree: { type: 'NOT', child: { type: 'cart.subtotal_gte', value: 5000 } } }
 */
export function validateConditionTree(input: unknown): ConditionTreeValidation {
  const root: Record<PathKey, unknown> = {};
  const stack: Frame[] = [{ input, parent: undefined, at: undefined, holder: root, slot: 'tree' }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const node = frame.input;
    if (!isRecord(node)) {
      const issue: z.core.$ZodIssue = {
        code: 'invalid_type',
        expected: 'object',
        input: node,
        path: pathOf(frame, []),
        message: 'Expected a condition node object',
      };
      return { ok: false, issue };
    }
    const type = node['type'];
    const schema = typeof type === 'string' ? shellSchemaFor(type) : undefined;
    if (schema === undefined) {
      const issue: z.core.$ZodIssue = {
        code: 'invalid_value',
        values: [...CONDITION_TYPES],
        input: type,
        path: pathOf(frame, ['type']),
        message: `Unknown condition type ${JSON.stringify(type) ?? 'undefined'}; expected one of: ${CONDITION_TYPES.join(', ')}`,
      };
      return { ok: false, issue };
    }
    const parsed = schema.safeParse(node);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      if (first === undefined) throw new Error('zod reported failure without an issue');
      return { ok: false, issue: { ...first, path: pathOf(frame, first.path) } };
    }
    const out: Record<PathKey, unknown> = parsed.data;
    setSlot(frame.holder, frame.slot, out);
    const children = out['children'];
    if (Array.isArray(children)) {
      // Reverse push so children pop in document order and the first issue reported is
      // the first one a reader would find.
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push({ input: children[i], parent: frame, at: i, holder: children, slot: i });
      }
    } else if (type === 'NOT') {
      stack.push({ input: out['child'], parent: frame, at: 'child', holder: out, slot: 'child' });
    }
  }
  // Every node passed its own schema and the walk replaced each child slot with a
  // parsed node, so the assembled value has the ConditionNode shape.
  return { ok: true, tree: root['tree'] as ConditionNode };
}

/**
 * The Zod schema of a whole condition tree, validated iteratively (z.lazy would recurse
 * once per level and overflow the stack on deep trees). Issues carry the full path, so
 * inside a bigger object the path runs from the request root, e.g.
 * `['campaigns', 0, 'rules', 1, 'conditionTree', 'children', 0, 'value']`.
 * Fast fail: only the first issue is reported. For JSON Schema generation, the
 * `@gcrs/engine/json-schema` subpath describes it (kept out of this module so that
 * evaluating rules never builds documentation).
 *
 * @example conditionNodeSchema.parse({ type: 'AND', children: [] }) // accepted, never matches
 */
export const conditionNodeSchema: z.ZodType<ConditionNode> = z
  .unknown()
  .transform((value, ctx): ConditionNode => {
    const result = validateConditionTree(value);
    if (result.ok) return result.tree;
    // A parsed issue is a raw issue with every optional part filled in; Zod's raw-issue
    // type only lacks the index signature to say so.
    ctx.addIssue(result.issue as z.core.$ZodRawIssue);
    return z.NEVER;
  });
