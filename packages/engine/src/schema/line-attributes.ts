import * as z from 'zod';
import { textSchema } from './text.ts';

// Keys and values are storable text (no NUL, no lone surrogate), in both forms alike.

/** The object form: `{ key: value }`. */
const attributeObjectSchema = z.record(textSchema, textSchema);

/** The platform's list form: `[{ key, value }]`, value null when unset. */
const attributeListSchema = z.array(z.object({ key: textSchema, value: textSchema.nullable() }));

/** What {@link lineAttributesSchema} accepts. */
export type LineAttributesInput = Record<string, string> | { key: string; value: string | null }[];

/**
 * Turns the list form into the object form the evaluator reads. A `null` value means the
 * attribute is not set, so the key is left out; of repeated keys the last one wins (as in
 * the object form, where a JSON object's last duplicate key wins). Object.fromEntries
 * defines own properties, so a key such as `__proto__` is an ordinary attribute.
 *
 * @example attributesFromList([{ key: '_svc_campaign_id', value: 'cmp_1' }]) // { _svc_campaign_id: 'cmp_1' }
 */
export function attributesFromList(list: readonly { key: string; value: string | null }[]): Record<string, string> {
  const entries: [string, string][] = [];
  for (const { key, value } of list) if (value !== null) entries.push([key, value]);
  return Object.fromEntries(entries);
}

/**
 * Cart-line attributes (line properties) in either form the platform uses: an object
 * `{ key: value }`, or a list `[{ key, value }]` as the Storefront and Cart APIs return it.
 * Normalised to the object form once, at parse time, so the evaluator and the planner only
 * ever see objects. The form is chosen by `Array.isArray` rather than by a union, so an
 * issue keeps its exact path (`['attributes', 'gift_wrap']`, `['attributes', 0, 'key']`)
 * instead of becoming one "no union member matched" issue on `attributes`.
 *
 * @example lineAttributesSchema.parse([{ key: 'gift_wrap', value: 'yes' }]) // { gift_wrap: 'yes' }
 */
export const lineAttributesSchema = z.unknown().transform((input, ctx): Record<string, string> => {
  if (Array.isArray(input)) {
    const list = attributeListSchema.safeParse(input);
    if (list.success) return attributesFromList(list.data);
    for (const issue of list.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
    return z.NEVER;
  }
  const object = attributeObjectSchema.safeParse(input);
  if (object.success) return object.data;
  for (const issue of object.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
  return z.NEVER;
  // The walk above accepts exactly LineAttributesInput; saying so gives z.input (and so
  // EvaluationContextInput) the real input type instead of `unknown`.
}) as unknown as z.ZodType<Record<string, string>, LineAttributesInput>;

// Zod's hook for a schema it cannot describe itself: document both forms, generated from
// the two schemas above when a JSON Schema is asked for (never at load).
lineAttributesSchema._zod.toJSONSchema = () => {
  const { $schema: _dialect, ...body } = z.toJSONSchema(z.union([attributeObjectSchema, attributeListSchema]), { io: 'input' });
  return body;
};
