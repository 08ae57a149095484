/**
 * Answering a GraphQL selection from plain values, as the platform's executor would: each
 * family builds its objects with the platform's field names, a field that takes arguments (a
 * connection's `first`/`after`) as a function of them, and `answerField` keeps exactly what the
 * document selects, under its response keys. No field the document did not ask for is answered,
 * so test/platform/admin-schema.test.ts can hold every answer to the Admin API schema.
 */
import { Kind } from 'graphql';
import type { FieldNode, OperationDefinitionNode, SelectionSetNode, ValueNode } from 'graphql';

/** A value a family answers: scalars, lists, objects of field name → value or resolver. */
export type Answer = string | number | boolean | null | undefined | Answer[] | { [field: string]: Answer | Resolver };
export type Resolver = (args: Record<string, unknown>) => Answer;

function valueOf(node: ValueNode, variables: Record<string, unknown>): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      return variables[node.name.value];
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => valueOf(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, valueOf(f.value, variables)]));
  }
}

/** The field's arguments, variables filled in. */
export function argsOf(field: FieldNode, variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries((field.arguments ?? []).map((a) => [a.name.value, valueOf(a.value, variables)]));
}

function answerSelection(selectionSet: SelectionSetNode, value: Answer, variables: Record<string, unknown>): Answer {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => answerSelection(selectionSet, item, variables));
  if (typeof value !== 'object') return value;
  const out: Record<string, Answer> = {};
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      Object.assign(out, answerSelection(selection.selectionSet, value, variables));
      continue;
    }
    if (selection.kind !== Kind.FIELD) continue;
    out[selection.alias?.value ?? selection.name.value] = answerField(selection, value, variables);
  }
  return out;
}

/**
 * The answer of `field` on `parent`: its resolver called with the field's arguments, then only
 * the selected sub-fields. A field the parent lacks is answered null (a family that "forgets" a
 * field shows as a null where the schema may not allow one).
 *
 * @example answerField(fieldNode, { shop: { name: 'A', currencyCode: 'EUR', ianaTimezone: 'UTC' } }, {})
 */
export function answerField(field: FieldNode, parent: { [field: string]: Answer | Resolver }, variables: Record<string, unknown>): Answer {
  const raw = parent[field.name.value];
  const value = typeof raw === 'function' ? raw(argsOf(field, variables)) : raw;
  if (field.selectionSet === undefined) return value ?? null;
  return answerSelection(field.selectionSet, value, variables);
}

/**
 * A family's answer to `operation`: each root field it selects that `root` answers (under its
 * alias), as `{ data }`. Fields of other families are left to them (standin.ts merges).
 *
 * @example answerRoot(call.operation, { shop: { name: 'A' } }, call.variables) // { data: { shop: { name: 'A' } } }
 */
export function answerRoot(operation: OperationDefinitionNode, root: { [field: string]: Answer | Resolver }, variables: Record<string, unknown>): { data: Record<string, Answer> } {
  const data: Record<string, Answer> = {};
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind === Kind.FIELD && selection.name.value in root) data[selection.alias?.value ?? selection.name.value] = answerField(selection, root, variables);
  }
  return { data };
}

/**
 * A connection of `items` as the platform pages it: `first` (at most 250), `after` an opaque
 * cursor, `nodes`, `edges { cursor node }` and `pageInfo`.
 *
 * @example connection(products, { first: 50 }, (p) => productAnswer(p))
 */
export function connection<T>(items: readonly T[], args: Record<string, unknown>, toAnswer: (item: T) => Answer): Answer {
  const first = Math.min(typeof args.first === 'number' ? args.first : 250, 250);
  const after = typeof args.after === 'string' ? Number(Buffer.from(args.after, 'base64url').toString('utf8').replace(/^i:/, '')) : -1;
  const start = Number.isInteger(after) ? after + 1 : 0;
  const page = items.slice(start, start + first);
  const cursor = (index: number) => Buffer.from(`i:${start + index}`).toString('base64url');
  return {
    nodes: page.map(toAnswer),
    edges: page.map((item, index) => ({ cursor: cursor(index), node: toAnswer(item) })),
    pageInfo: {
      hasNextPage: start + first < items.length,
      hasPreviousPage: start > 0,
      startCursor: page.length > 0 ? cursor(0) : null,
      endCursor: page.length > 0 ? cursor(page.length - 1) : null,
    },
  };
}
