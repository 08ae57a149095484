import type { LeafNode } from '../leaves/registry.ts';
import { compileLeaf } from '../evaluate/compile-leaf.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';
import * as COMBINATOR_REASON from '../evaluate/combinator-reasons.ts';
import type { PreparedContext } from '../evaluate/prepare-context.ts';
import type { ConditionResult } from '../evaluate/evaluate-condition.ts';
import { MALFORMED_NODE, isNode } from '../evaluate/evaluate-condition.ts';

const LEAF = 0;
const AND = 1;
const OR = 2;
const NOT = 3;
/** A node that is false whatever the cart: empty AND/OR, or malformed. */
const FALSE = 4;

/**
 * A condition tree compiled to a flat program: nodes in pre-order, each with its kind and
 * the index just past its subtree (`ends`), leaves as predicates. Running it is one loop
 * over typed arrays with an explicit frame stack, so it neither recurses (any depth) nor
 * allocates per node; short-circuiting is a jump to the end of the parent's subtree.
 */
export type ConditionProgram = {
  readonly size: number;
  readonly depth: number;
  /** Evaluates with SPEC's short-circuit semantics against a prepared context. */
  run(ctx: PreparedContext): ConditionResult;
};

type Pending = { node: unknown; parent: number; depth: number };

/**
 * Compiles a tree once (iteratively). Unknown nodes compile to constant false, exactly as
 * the interpreters treat them, so all three evaluators agree on malformed input too.
 *
 * @example compileConditionProgram(rule.conditionTree).run(prepared).matched
 */
export function compileConditionProgram(tree: unknown): ConditionProgram {
  const kinds: number[] = [];
  const parents: number[] = [];
  const leaves: Array<LeafPredicate | undefined> = [];
  const constants: string[] = [];
  let depth = 0;
  const pending: Pending[] = [{ node: tree, parent: -1, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const index = kinds.length;
    const node = item.node;
    depth = Math.max(depth, item.depth);
    parents.push(item.parent);
    let kind = FALSE;
    let constant = '';
    let leaf: LeafPredicate | undefined;
    if (!isNode(node)) {
      constant = MALFORMED_NODE;
    } else if (node.type === 'AND' || node.type === 'OR') {
      const children: unknown = node.children;
      if (Array.isArray(children) && children.length > 0) {
        kind = node.type === 'AND' ? AND : OR;
        for (let i = children.length - 1; i >= 0; i--) {
          pending.push({ node: children[i], parent: index, depth: item.depth + 1 });
        }
      } else {
        constant = COMBINATOR_REASON.emptyChildren;
      }
    } else if (node.type === 'NOT') {
      if (isNode(node.child)) {
        kind = NOT;
        pending.push({ node: node.child, parent: index, depth: item.depth + 1 });
      } else {
        constant = MALFORMED_NODE;
      }
    } else {
      kind = LEAF;
      leaf = compileLeaf(node as LeafNode);
    }
    kinds.push(kind);
    leaves.push(leaf);
    constants.push(constant);
  }
  return buildProgram(Uint8Array.from(kinds), computeEnds(parents), leaves, constants, depth);
}

// Pre-order puts every child after its parent, so one backwards pass folds each
// subtree's end into its parent's.
function computeEnds(parents: readonly number[]): Int32Array {
  const ends = new Int32Array(parents.length);
  for (let i = parents.length - 1; i >= 0; i--) {
    if (ends[i] === 0) ends[i] = i + 1;
    const parent = parents[i] ?? -1;
    const end = ends[i] ?? 0;
    if (parent >= 0 && end > (ends[parent] ?? 0)) ends[parent] = end;
  }
  return ends;
}

function buildProgram(
  kinds: Uint8Array,
  ends: Int32Array,
  leaves: ReadonlyArray<LeafPredicate | undefined>,
  constants: readonly string[],
  depth: number,
): ConditionProgram {
  // Scratch space reused by every run: evaluation is synchronous and leaves never call
  // back into a program, so one set per program is safe and saves allocating per run.
  const frames = new Int32Array(depth + 1);
  const marks = new Int32Array(depth + 1);
  const childStarts = new Int32Array(depth + 1);
  const reasons: string[] = new Array<string>(kinds.length).fill('');

  const run = (ctx: PreparedContext): ConditionResult => {
    let sp = 0;
    let length = 0;
    let i = 0;
    let result = false;
    for (;;) {
      let kind = kinds[i] ?? FALSE;
      while (kind === AND || kind === OR || kind === NOT) {
        frames[sp] = i;
        marks[sp] = length;
        childStarts[sp] = length;
        sp++;
        i++;
        kind = kinds[i] ?? FALSE;
      }
      if (kind === LEAF) {
        const predicate = leaves[i];
        const outcome = predicate === undefined ? undefined : predicate(ctx);
        result = outcome?.matched === true;
        reasons[length++] = outcome?.reason ?? MALFORMED_NODE;
      } else {
        result = false;
        reasons[length++] = constants[i] ?? MALFORMED_NODE;
      }
      let next = -1;
      while (sp > 0) {
        const top = sp - 1;
        const parent = frames[top] ?? 0;
        const parentKind = kinds[parent];
        if (parentKind === NOT) {
          result = !result;
        } else if (parentKind === AND ? !result : result) {
          // Decided: keep only the deciding child's reasons, skip the other children.
          const start = childStarts[top] ?? 0;
          const mark = marks[top] ?? 0;
          for (let r = start; r < length; r++) reasons[mark + r - start] = reasons[r] ?? '';
          length = mark + length - start;
        } else if ((ends[i] ?? 0) !== (ends[parent] ?? 0)) {
          next = ends[i] ?? 0;
          childStarts[top] = length;
          break;
        }
        sp--;
        i = parent;
      }
      if (next < 0) return { matched: result, reasons: uniqueReasons(reasons, length) };
      i = next;
    }
  };
  return { size: kinds.length, depth, run };
}

function uniqueReasons(reasons: readonly string[], length: number): string[] {
  const unique: string[] = [];
  for (let r = 0; r < length; r++) {
    const reason = reasons[r] ?? '';
    if (!unique.includes(reason)) unique.push(reason);
  }
  return unique;
}
