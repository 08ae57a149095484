/**
 * The discount function's input query against the schema of its pinned `api_version`
 * (extensions/gift-discount/schema.graphql, scripts/function-schema.ts): valid, and asking for
 * no deprecated field, so the platform cannot take a field away from under the function.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TypeInfo, buildSchema, parse, validate, visit, visitWithTypeInfo } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { EXTENSION_DIR, readToml } from '../../scripts/app-config.ts';
import { SCHEMA_FILE, SCHEMA_SOURCE, extensionApiVersion } from '../../scripts/function-schema.ts';

const schemaText = readFileSync(SCHEMA_FILE, 'utf8');
const schema = buildSchema(schemaText);

/** The input queries the extension's targets name. */
function inputQueries(): Array<{ target: string; path: string }> {
  const toml = readToml(join(EXTENSION_DIR, 'shopify.extension.toml')) as { extensions: Array<{ targeting: Array<{ target: string; input_query: string }> }> };
  return toml.extensions.flatMap((extension) => extension.targeting.map((t) => ({ target: t.target, path: join(EXTENSION_DIR, t.input_query) })));
}

/** `Type.field` of every deprecated field (or argument) the document selects. */
function deprecatedSelections(against: GraphQLSchema, document: string): string[] {
  const typeInfo = new TypeInfo(against);
  const found: string[] = [];
  visit(
    parse(document),
    visitWithTypeInfo(typeInfo, {
      Field() {
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (field?.deprecationReason != null) found.push(`${parent?.name ?? '?'}.${field.name}`);
      },
      Argument() {
        const argument = typeInfo.getArgument();
        if (argument?.deprecationReason != null) found.push(`argument ${argument.name}`);
      },
    }),
  );
  return found;
}

describe('the discount function input query', () => {
  it('is checked against the schema of the extension api_version, from the pinned introspection', () => {
    const version = extensionApiVersion();
    expect(version).toBe('2025-10');
    expect(schemaText).toContain(`Discount Function API ${version}`);
    expect(schemaText).toContain(`${SCHEMA_SOURCE} dist/data/functions_discount_${version}.json.gz`);
    expect(inputQueries().map((q) => q.target)).toEqual(['cart.lines.discounts.generate.run']);
  });

  it.each(inputQueries())('$target: valid against schema.graphql, with no deprecated field', ({ path }) => {
    const document = readFileSync(path, 'utf8');
    expect(validate(schema, parse(document)).map((error) => error.message)).toEqual([]);
    expect(deprecatedSelections(schema, document)).toEqual([]);
  });

  it('finds a deprecated field when one is asked for (the old query read localization.market)', () => {
    const old = 'query Q { localization { country { isoCode } market { handle } } }';
    expect(validate(schema, parse(old))).toEqual([]);
    expect(deprecatedSelections(schema, old)).toEqual(['Localization.market']);
    expect(schema.getType('Localization')?.toString()).toBe('Localization');
  });

  it('finds an invalid field', () => {
    const wrong = 'query Q { cart { lines { price } } }';
    expect(validate(schema, parse(wrong)).map((error) => error.message)).toEqual(['Cannot query field "price" on type "CartLine".']);
  });
});
