/**
 * Request bodies of the AJAX Cart API as the platform accepts them: JSON, or a form
 * (`application/x-www-form-urlencoded` or `multipart/form-data`, what `new FormData(form)`
 * sends) with bracketed names such as `items[0][id]` and `properties[Engraving]`.
 */
import { z } from 'zod';
import type { AddItem } from './cart.ts';

/** `items[0][properties][Note]=x` → `{ items: { 0: { properties: { Note: 'x' } } } }`. */
export function nestFormEntries(entries: Iterable<[string, string]>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    const path = name.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) node[segment] = value;
      else {
        const child = node[segment];
        node = typeof child === 'object' && child !== null ? (child as Record<string, unknown>) : (node[segment] = {}) as Record<string, unknown>;
      }
    });
  }
  return root;
}

/** Reads a request body into a plain object, whatever encoding the theme used. */
export async function readCartBody(body: Buffer, contentType: string | undefined): Promise<unknown> {
  if (body.length === 0) return {};
  if (contentType?.includes('application/json')) return JSON.parse(body.toString('utf8')) as unknown;
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType ?? 'application/x-www-form-urlencoded' } }).formData();
  const entries: [string, string][] = [];
  form.forEach((value, name) => {
    if (typeof value === 'string') entries.push([name, value]);
  });
  return nestFormEntries(entries);
}

const integer = z.union([z.number(), z.string().regex(/^-?\d+$/)]).transform(Number).pipe(z.int());
const properties = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).default({});
/** A form's `items` arrives as `{ "0": …, "1": … }`; JSON's as an array. */
const listOf = <T extends z.ZodType>(item: T) =>
  z.union([z.array(item), z.record(z.string(), item).transform((record) => Object.values(record))]);

const addItemSchema = z
  .object({ id: integer, quantity: integer.default(1), properties, selling_plan: integer.nullish() })
  .transform((item): AddItem => ({ id: item.id, quantity: item.quantity, properties: item.properties, sellingPlanId: item.selling_plan ?? null }));

/** `{ items: [...] }` answers `{ items }`; a single `{ id, quantity }` answers the one line. */
export const addBodySchema = z.union([
  z.object({ items: listOf(addItemSchema) }).transform((body) => ({ items: body.items, single: false })),
  addItemSchema.transform((item) => ({ items: [item], single: true })),
]);

export const changeBodySchema = z
  .object({
    id: z.union([z.string().min(1), z.number()]).optional(),
    line: integer.optional(),
    quantity: integer.pipe(z.int().min(0)).optional(),
    properties: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).optional(),
  })
  .refine((body) => body.id !== undefined || body.line !== undefined, { message: 'no valid id or line parameter' });

export const updateBodySchema = z.object({
  updates: z.union([z.array(integer), z.record(z.string(), integer)]).default({}),
  note: z.string().optional(),
  attributes: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).optional(),
});
