/**
 * The widget settings table of docs/rules-payload.md lists exactly the fields of the one schema
 * (packages/engine/src/schema/widget-settings.ts), so the page cannot keep a setting that was
 * removed or miss one that was added (issue 23: five settings lived on in copies).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { widgetSectionSchemas } from '@gcrs/engine';
import { describe, expect, it } from 'vitest';

const DOC = join(import.meta.dirname, '..', '..', 'docs', 'rules-payload.md');

/** `section.field` of every row of the table: `| \`toast.enabled\` | … |`; `customCode.html`, `.css`, `.js` are one row. */
function documentedFields(markdown: string): string[] {
  const fields: string[] = [];
  for (const [, cell] of markdown.matchAll(/^ *\| (`(?:toast|promoPopup|progressBar|giftChoice|reminder|customCode)\.[^|]*) \|/gm)) {
    const names = [...(cell ?? '').matchAll(/`([^`]+)`/g)].map(([, name]) => name ?? '');
    const section = names[0]?.split('.')[0] ?? '';
    for (const name of names) fields.push(name.startsWith('.') ? `${section}${name}` : name);
  }
  return fields.filter((name) => !name.includes('[]'));
}

describe('docs/rules-payload.md widget settings', () => {
  it('lists exactly the fields of the schema', () => {
    const schemaFields = Object.entries(widgetSectionSchemas).flatMap(([section, schema]) => Object.keys(schema.shape).map((field) => `${section}.${field}`));
    expect(documentedFields(readFileSync(DOC, 'utf8')).sort()).toEqual(schemaFields.sort());
  });
});
