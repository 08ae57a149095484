import * as z from 'zod';

/** The platform's attribute list form: `[{ key, value }]`, value null when unset. */
const attributeListSchema = z.array(z.object({ key: z.string(), value: z.string().nullable() }));

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
 * ever see objects.
 *
 * @example lineAttributesSchema.parse([{ key: 'gift_wrap', value: 'yes' }]) // { gift_wrap: 'yes' }
 */
export const lineAttributesSchema = z.union([
  z.record(z.string(), z.string()),
  attributeListSchema.transform(attributesFromList),
]);
