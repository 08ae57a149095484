/**
 * The Widgets page's form, read from the engine's one widget settings schema
 * (packages/engine/src/schema/widget-settings.ts): a section per schema section but
 * `customCode` (a card of its own), a field per setting with a `title`, labelled by it, helped by
 * its `description`, its input chosen by its type. A setting is added or removed there only.
 * `translations` is not a field: its texts are the section's own fields, edited per locale.
 */
import { hexColorSchema, multilineTextSchema, widgetSectionSchemas, widgetUrlSchema } from '@gcrs/engine';
import type { WidgetSectionKey } from '@gcrs/engine';
import * as z from 'zod';

export type Field =
  | { key: string; label: string; help?: string; kind: 'text' | 'multiline' | 'color' | 'url' | 'number' | 'bool' }
  | { key: string; label: string; help?: string; kind: 'select'; options: string[] };

/** `translatable`: the fields its `translations` hold per locale (the shopper-facing texts). */
export type Section = { key: WidgetSectionKey; title: string; fields: Field[]; translatable: string[] };

/** The schema under its default and null. */
function bare(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodNullable) return bare(schema.unwrap() as z.ZodType);
  return schema;
}

/**
 * @example fieldOf('position', toast.shape.position) // { key: 'position', label: 'Toast position', kind: 'select', options: ['top-left', …] }
 */
function fieldOf(key: string, schema: z.ZodType): Field | undefined {
  const meta = schema.meta();
  if (typeof meta?.title !== 'string') return undefined; // not edited here (SPEC's progressBar.thresholds)
  const base = { key, label: meta.title, ...(typeof meta.description === 'string' ? { help: meta.description } : {}) };
  const inner = bare(schema);
  if (inner instanceof z.ZodEnum) return { ...base, kind: 'select', options: inner.options.map(String) };
  if (inner instanceof z.ZodBoolean) return { ...base, kind: 'bool' };
  if (inner instanceof z.ZodNumber) return { ...base, kind: 'number' };
  if (inner === hexColorSchema) return { ...base, kind: 'color' };
  if (inner === widgetUrlSchema) return { ...base, kind: 'url' };
  return { ...base, kind: inner === multilineTextSchema ? 'multiline' : 'text' };
}

export const SECTIONS: Section[] = Object.entries(widgetSectionSchemas).flatMap(([key, schema]) => {
  if (key === 'customCode') return [];
  const shape = schema.shape as Record<string, z.ZodType>;
  const fields = Object.entries(shape).flatMap(([name, field]) => (name === 'translations' ? [] : (fieldOf(name, field) ?? [])));
  const perLocale = shape.translations && bare(shape.translations);
  const translatable = perLocale instanceof z.ZodRecord ? Object.keys((perLocale.valueType as z.ZodObject).shape) : [];
  return [{ key: key as WidgetSectionKey, title: String(schema.meta()?.title ?? key), fields, translatable }];
});
