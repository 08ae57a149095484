/**
 * The documented shape of the engine's condition trace (`ConditionTrace`), which POST /evaluate
 * and the simulator answer with: documentation only, as the server writes traces and never
 * parses them. Recursive, so the OpenAPI documents name it as a component (openapi.ts), as
 * they do the engine's condition tree.
 */
import type { ConditionTrace } from '@gcrs/engine';
import { z } from 'zod';

/**
 * JSON Schema of one trace node; `selfRef` is how `children` point back at it (a trace is as
 * deep as its tree): the OpenAPI document names it as a component and passes that component's ref.
 *
 * @example
 *   buildConditionTraceJsonSchema('#/components/schemas/ConditionTrace');
 */
export function buildConditionTraceJsonSchema(selfRef: string): Record<string, unknown> {
  return {
    type: 'object',
    description: 'One node of the full trace: every child is evaluated, none is skipped.',
    properties: {
      type: { type: 'string', description: 'The node type, e.g. `AND` or `cart.subtotal_gte`' },
      matched: { type: 'boolean' },
      reasons: { type: 'array', items: { type: 'string' }, description: 'Short codes; not a stability contract' },
      children: { type: 'array', items: { $ref: selfRef }, description: 'Combinators only: the traces of their children' },
      truncated: {
        type: 'boolean',
        enum: [true],
        description: 'Only on a rule\'s root, when the response\'s trace node limit left no room for its tree: no `children`, and `reasons` are the rule\'s',
      },
    },
    required: ['type', 'matched', 'reasons'],
  };
}

// Self-contained: its `$id` makes the `#` of `children` point at this very schema wherever it is embedded.
const conditionTraceJsonSchema = { $id: 'urn:gcrs:evaluate:condition-trace', ...buildConditionTraceJsonSchema('#') };

/** A condition trace (documentation only: responses are written by the server, not parsed). */
export const conditionTraceSchema = z.custom<ConditionTrace>(() => true);
// Zod's hook for a schema it cannot describe itself (the engine's condition tree uses it too);
// a copy each time, since `override` callbacks may rewrite the result in place.
conditionTraceSchema._zod.toJSONSchema = () => structuredClone(conditionTraceJsonSchema);
