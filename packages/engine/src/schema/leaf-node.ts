import * as z from 'zod';
import { LEAF_FILES, LEAF_TYPES } from '../leaves/registry.ts';
import type { LeafType } from '../leaves/registry.ts';

export { LEAF_TYPES, isLeafType } from '../leaves/registry.ts';
export type { LeafNode, LeafOf, LeafType } from '../leaves/registry.ts';

type LeafFiles = typeof LEAF_FILES;

/**
 * Every leaf schema, keyed by its `type`, in SPEC's table order: each leaf file's schema
 * built with Zod (leaves/registry.ts). The source of `leafNodeSchema`, the tree validator and
 * the JSON Schema.
 */
export const LEAF_SCHEMAS = Object.fromEntries(LEAF_TYPES.map((type) => [type, LEAF_FILES[type].schema(z)])) as {
  [K in LeafType]: ReturnType<LeafFiles[K]['schema']>;
};

type LeafSchema = (typeof LEAF_SCHEMAS)[LeafType];

/** Any one leaf node (not recursive, so a plain discriminated union is safe). */
export const leafNodeSchema = z.discriminatedUnion('type', Object.values(LEAF_SCHEMAS) as [LeafSchema, ...LeafSchema[]]);
