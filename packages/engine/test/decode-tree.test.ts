// decodeTree (compact-tree.ts) was rewritten without a closure per node, callbacks or spreads
// (issue 22, instructions): the same engine tree for every input, well-formed or not, as the
// decoder before it (kept here as written then).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEAF_CODEC, decodeTree, encodeTree } from '../src/checkout-function.ts';
import { LEAVES } from '../src/leaves/registry.ts';
import type { AnyLeafRecord } from '../src/leaves/registry.ts';
import { treeArb } from './support/arbitraries.ts';

const RECORD_OF = new Map(Object.entries(LEAVES) as Array<[string, AnyLeafRecord]>);
const LEAF_OF_CODE = new Map([...RECORD_OF].map(([type, leaf]) => [leaf.code, { type, leaf }]));
const COMBINATOR_TYPES: Record<string, string> = { '&': 'AND', '|': 'OR', '!': 'NOT' };

function decodeTreeBefore(compact: unknown): unknown {
  const holder: { child?: unknown } = {};
  const stack: Array<{ node: unknown; put: (value: unknown) => void }> = [{ node: compact, put: (value) => (holder.child = value) }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const node = item.node;
    if (!Array.isArray(node) || node.length === 0) {
      item.put({ type: 'malformed' });
      continue;
    }
    const head: unknown = node[0];
    // The short spellings: a bare AND (its head is its first child) and a negated leaf.
    if (Array.isArray(head)) {
      const children: unknown[] = [];
      item.put({ type: 'AND', children });
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], put: (value) => (children[i] = value) });
      continue;
    }
    if (typeof head === 'number' && Number.isInteger(head) && head < 0) {
      const decoded: Record<string, unknown> = { type: 'NOT' };
      item.put(decoded);
      stack.push({ node: [~head, ...(node.slice(1) as unknown[])], put: (value) => (decoded.child = value) });
      continue;
    }
    const combinator = typeof head === 'string' ? COMBINATOR_TYPES[head] : undefined;
    if (combinator === 'NOT') {
      const decoded: Record<string, unknown> = { type: 'NOT' };
      item.put(decoded);
      stack.push({ node: node[1], put: (value) => (decoded.child = value) });
      continue;
    }
    if (combinator !== undefined) {
      const children: unknown[] = [];
      item.put({ type: combinator, children });
      for (let i = node.length - 1; i >= 1; i--) stack.push({ node: node[i], put: (value) => (children[i - 1] = value) });
      continue;
    }
    const entry = typeof head === 'number' ? LEAF_OF_CODE.get(head) : undefined;
    if (entry === undefined) {
      item.put({ type: 'malformed' });
      continue;
    }
    const leaf: Record<string, unknown> = { type: entry.type };
    entry.leaf.fields.forEach((field, i) => {
      const value: unknown = node[i + 1];
      if (value !== undefined && value !== null) leaf[field] = entry.leaf.lists?.includes(field) === true && !Array.isArray(value) ? [value] : value;
    });
    item.put(leaf);
  }
  return holder.child;
}

const code = fc.constantFrom(...LEAF_CODEC.map(([c]) => c), 99, -1, -100, 1.5);
const value = fc.oneof(fc.integer(), fc.constantFrom('vip', 'DE', '&', '|', '!', null), fc.array(fc.constantFrom('a', 'b', 1), { maxLength: 2 }), fc.constant(undefined));
const compactArb = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(code).chain(([c]) => fc.array(value, { maxLength: 4 }).map((fields) => [c, ...fields])),
    fc.array(tie('node'), { maxLength: 3 }).map((children) => ['&', ...children]),
    fc.array(tie('node'), { maxLength: 3 }).map((children) => ['|', ...children]),
    tie('node').map((child) => ['!', child]),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).filter((children) => Array.isArray(children[0])),
    fc.constantFrom(0, [], 'x', null, {}, [[]]),
  ),
})).node;

describe('decodeTree', () => {
  it('decodes every compact input as the decoder before it', () => {
    fc.assert(fc.property(compactArb, (compact) => {
        expect(decodeTree(compact)).toEqual(decodeTreeBefore(compact));
      }), { numRuns: 2000 });
  });

  it('and every encoded tree', () => {
    fc.assert(fc.property(treeArb, (tree) => {
        expect(decodeTree(encodeTree(tree))).toEqual(decodeTreeBefore(encodeTree(tree)));
      }), { numRuns: 500 });
  });
});
