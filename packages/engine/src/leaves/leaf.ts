/**
 * What a condition leaf is made of. A leaf is one file in this folder, whose four exports are
 * its pieces: `schema` (what the API accepts), `predicate` (its semantics), `meta` (its wire
 * code, plan and compact fields) and `form` (the admin's label and fields). They are separate
 * exports, not one object, so that a bundle keeps only the pieces it reads: the storefront's
 * first load keeps predicates, the checkout function predicates and meta, and neither the Zod
 * schema nor the admin's words (a bundler drops unused exports, never unused properties).
 * registry.ts checks each file against {@link LeafFile} and derives every map from them.
 */
import type * as Zod from 'zod';
import type { Plan } from '../plan/plans.ts';
import type { LeafPredicate } from '../evaluate/leaf-predicate.ts';

/** Zod's namespace as a leaf's schema function receives it. */
export type ZodNamespace = typeof Zod;

/** A leaf's Zod schema, built on call: a bundle that never validates never loads Zod. */
export type LeafSchemaBuilder<T extends string = string> = (z: ZodNamespace) => Zod.ZodObject<{ type: Zod.ZodLiteral<T> } & Zod.ZodRawShape>;

/** A leaf node as its schema outputs it. */
export type NodeOf<S extends LeafSchemaBuilder> = Zod.output<ReturnType<S>>;

/** A leaf's field names (its keys but `type`). */
export type FieldsOf<L> = Exclude<keyof L, 'type'> & string;

/** The registry's record of a leaf, as every bundle reads it. */
export type LeafMeta<L> = {
  /**
   * The leaf's number in the compact tree (`[code, ...fields]`). Stored in shops'
   * configurations, so fixed for ever: never reuse or renumber one (a test pins them).
   */
  code: number;
  /** The cheapest plan whose matrix has the leaf (SPEC "Plans"); every later plan has it too. */
  plan: Plan;
  /** Its fields in the compact form, in this order (a test holds them to the schema's keys). */
  fields: readonly FieldsOf<L>[];
  /** Fields holding platform ids, written as their numeric part. */
  ids?: readonly FieldsOf<L>[];
  /** Array fields written as a bare value when they hold one element. */
  lists?: readonly FieldsOf<L>[];
};

/**
 * How the builder edits a field: `money` is minor units of the shop's currency typed in
 * major units; `moneyOverrides` is `CODE=amount` lines in each currency's major units;
 * `overrides` is `key=minor units` lines; `optionalText` and `optionalList` leave the field
 * out when empty; `idOrNumber` sends digits as a number; `choice` is one of `options`;
 * `yesNo` is a boolean offered as the `options` 'true' and 'false'.
 */
export type LeafFieldKind =
  | 'money'
  | 'moneyOverrides'
  | 'overrides'
  | 'integer'
  | 'text'
  | 'optionalText'
  | 'idOrNumber'
  | 'list'
  | 'optionalList'
  | 'choice'
  | 'yesNo';

export type LeafField<Key extends string = string> = {
  key: Key;
  kind: LeafFieldKind;
  /** Said after the node's name: "Rule 1 condition.2: amount". */
  label: string;
  help?: string;
  options?: ReadonlyArray<{ label: string; value: string }>;
};

/** The admin's piece of a leaf: the tree builder renders it with no per-leaf code. */
export type LeafForm<L = Record<string, unknown>> = {
  /** The leaf as the merchant reads it, in the type picker, the simulator's trace and the plan notes. */
  label: string;
  /** A new leaf's values, neutral ones the merchant then fills in. */
  initial: Omit<L, 'type'>;
  fields: ReadonlyArray<LeafField<FieldsOf<L>>>;
};

/** One leaf file's exports, for the leaf node `L` its schema outputs. */
export type LeafFile<T extends string, S extends LeafSchemaBuilder<T>> = {
  schema: S;
  predicate: (leaf: NodeOf<S>) => LeafPredicate;
  meta: LeafMeta<NodeOf<S>>;
  form: LeafForm<NodeOf<S>>;
};
