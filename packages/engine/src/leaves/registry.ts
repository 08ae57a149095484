/**
 * The leaf registry. A condition leaf is one file in this folder (see leaf.ts for its four
 * pieces); `npm run leaves:registry` lists the files in registry-files.ts (generated, in
 * wire-code order), and this module derives what the rest of the engine reads. Adding a leaf is
 * its file and its tests (docs/extending.md), then that command; a test fails while the lists
 * are stale, and the compiler names a file that lacks a piece.
 *
 * Three maps, not one, because a bundler keeps a whole module namespace once it is used as a
 * value: `PREDICATES` is all the storefront's first load reads, `LEAVES` and `PREDICATES` all
 * the checkout function reads, and only the server and the admin read `LEAF_FILES` (the Zod
 * schemas and the admin's words). test/leaf-bundles.test.ts holds the bundles to that.
 */
import type { FieldsOf, LeafMeta, NodeOf } from './leaf.ts';
import { LEAF_FILES, LEAVES, PREDICATES } from './registry-files.ts';

export { LEAF_FILES, LEAVES, PREDICATES };

export type LeafType = keyof typeof LEAF_FILES;

/** The leaf node of one type, as its schema outputs it, e.g. `LeafOf<'cart.subtotal_gte'>`. */
export type LeafOf<K extends LeafType> = NodeOf<(typeof LEAF_FILES)[K]['schema']>;

/** Any one leaf node. */
export type LeafNode = { [K in LeafType]: LeafOf<K> }[LeafType];

/** A leaf's field names (its keys but `type`). */
export type FieldOf<K extends LeafType> = FieldsOf<LeafOf<K>>;

/** The leaf type names, in SPEC's table order. */
export const LEAF_TYPES = /* @__PURE__ */ Object.keys(LEAVES) as LeafType[];

/**
 * Whether a string names a leaf type.
 *
 * @example isLeafType('country.in') // true
 */
export function isLeafType(type: string): type is LeafType {
  return Object.hasOwn(LEAVES, type);
}

/** A leaf's record as code that walks every leaf reads it. */
export type AnyLeafRecord = { code: number; plan: LeafMeta<unknown>['plan']; fields: readonly string[]; ids?: readonly string[]; lists?: readonly string[] };

/**
 * A leaf's record through the common shape.
 *
 * @example leafRecord('country.in').code // 13
 */
export const leafRecord = (type: LeafType): AnyLeafRecord => LEAVES[type];

