// A leaf is one file with four pieces (packages/engine/src/leaves/leaf.ts), and the bundles that
// evaluate leaves keep only the pieces they read: the checkout function and every asset of the
// storefront script carry neither Zod (a leaf's schema is a function of it, never called there)
// nor the admin's words (a leaf's form). A piece written so that a bundler cannot drop it (a
// spread, a call at module level) fails here.
import { LEAF_TYPES, leafForm } from '@gcrs/engine';
import { CHUNK_NAMES, buildStorefrontScript } from '@gcrs/storefront/build-script';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFunction } from '../../scripts/build-function.ts';

// Every label, help and option of every leaf's form, but the one-word field labels ('value',
// 'code') that any code may hold.
const ADMIN_WORDS = [
  ...new Set(
    LEAF_TYPES.flatMap((type) => {
      const form = leafForm(type);
      return [form.label, ...form.fields.flatMap((field) => [field.label, field.help ?? '', ...(field.options ?? []).map((option) => option.label)])];
    }).filter((word) => word.includes(' ')),
  ),
];
// Messages that only the leaves' schemas hold.
const SCHEMA_WORDS = ['Expected a 2-letter country code', 'Expected a Product gid'];

const wordsIn = (code: string) => [...ADMIN_WORDS, ...SCHEMA_WORDS].filter((word) => code.includes(word));

let functionCode: string;
let storefrontAssets: Array<[string, string]>;
beforeAll(async () => {
  functionCode = (await buildFunction({ write: false })).code;
  const script = await buildStorefrontScript();
  storefrontAssets = [['gifts.js', script.code.toString()], ...CHUNK_NAMES.map((name): [string, string] => [name, script.chunks[name].code.toString()])];
});

describe('leaf pieces in bundles', () => {
  it('knows the words it looks for', () => {
    expect(ADMIN_WORDS).toEqual(expect.arrayContaining(['Cart subtotal is at least', 'only selling plans', 'Has no subscription line']));
    expect(ADMIN_WORDS.length).toBeGreaterThan(30);
  });

  it('the checkout function holds the predicates and wire codes, no Zod and no admin words', () => {
    expect(functionCode).toContain('"cart.subtotal_gte"');
    expect(functionCode).not.toMatch(/zod/i);
    expect(wordsIn(functionCode)).toEqual([]);
  });

  it("the storefront script's assets hold no Zod and no admin words", () => {
    // The debug chunk evaluates leaves (its trace): the predicates are there, the forms not.
    expect(storefrontAssets.map(([, code]) => code).join('\n')).toContain('"cart.subtotal_gte"');
    for (const [name, code] of storefrontAssets) {
      expect(code, name).not.toMatch(/zod/i);
      expect(wordsIn(code), name).toEqual([]);
    }
  });
});
