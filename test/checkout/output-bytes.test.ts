/**
 * The output's byte count (docs/checkout-function.md "Output size"): `textBytes`, which
 * `fitOutput` counts the output's JSON with on every cart with a claim, gives exactly
 * `utf8Length`'s answer by native calls (an ASCII regex, else `encodeURIComponent` and
 * `unescape`, else utf8Length itself), for any string, in Node and in QuickJS as the platform
 * runs it; and it is the UTF-8 length (Buffer.byteLength) of any well-formed string.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { textBytes, utf8Length } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFunctionInQuickJs } from '../../dev/checkout/quickjs-function.ts';
import type { QuickJsFunction } from '../../dev/checkout/quickjs-function.ts';
import { FUNCTION_BUILD_OPTIONS } from '../../scripts/build-function.ts';

/** Characters at every UTF-8 length's edge, surrogates of both halves, and JSON's escapes. */
const EDGES = ['a', '\u0000', '\u007f', '\u0080', '\u07ff', '\u0800', '\ud7ff', '\ud800', '\udbff', '\udc00', '\udfff', '\ue000', '\uffff', '😀', '"', '\\', 'é', '€', '%', '%u0041', '%41'];
/** Any UTF-16 code unit: lone surrogates, and high surrogates before anything. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: codeUnit }),
  fc.string({ unit: fc.oneof(fc.constantFrom(...EDGES), fc.string({ unit: 'grapheme-ascii', maxLength: 8 })) }),
  fc.string({ unit: 'grapheme' }).map((s) => JSON.stringify({ operations: [{ message: s }] })),
);

describe('textBytes', () => {
  it('is utf8Length for any string, and the UTF-8 length of any well-formed one', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(textBytes(s)).toBe(utf8Length(s));
        if (!/\p{Surrogate}/u.test(s)) expect(textBytes(s)).toBe(Buffer.byteLength(s)); // well-formed: no lone surrogate
      }),
      { numRuns: 2000 },
    );
  });

  it('counts each kind of character as utf8Length does, a high surrogate before any unit as 4 bytes', () => {
    const cases: Array<[string, number]> = [
      ['', 0], ['{"a":1}', 7], ['\u007f', 1], ['\u0080', 2], ['\u07ff', 2], ['\u0800', 3], ['\uffff', 3], ['😀', 4],
      ['\ud800', 3], ['\udc00', 3], ['\ud800a', 4], ['\ud800\u00e9', 4], ['a\udc00\ud800', 7], ['Geschenk für dich', 18], ['%u00e9%E9', 9],
    ];
    for (const [s, bytes] of cases) expect([s, textBytes(s)]).toEqual([s, bytes]);
    for (const [s] of cases) expect(textBytes(s)).toBe(utf8Length(s));
  });

  it('tests each text from its start (the sticky regex keeps no position from the text before)', () => {
    // After 'ab' matched, a regex left at index 2 would see only the 'ab' of 'ééab' ('é' first
    // fails, which puts a sticky regex back at 0 whatever the tests before left).
    expect([textBytes('é'), textBytes('ab'), textBytes('ééab'), textBytes('ééab')]).toEqual([2, 2, 6, 6]);
  });
});

describe('textBytes in QuickJS (the platform runs the function there)', () => {
  let quickJs: QuickJsFunction;
  beforeAll(async () => {
    // The function's own textBytes, bundled as the function is (build-function.ts).
    const bundled = await build({
      ...FUNCTION_BUILD_OPTIONS,
      stdin: { contents: "import { textBytes } from '@gcrs/engine/checkout'; export const run = (input) => input.texts.map(textBytes);", resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    });
    quickJs = await loadFunctionInQuickJs(bundled.outputFiles[0]?.text ?? '');
  });
  afterAll(() => quickJs.dispose());

  it('gives utf8Length for edge characters and for arbitrary strings, lone surrogates included', () => {
    const texts = [...EDGES, EDGES.join(''), ...fc.sample(text, { numRuns: 500, seed: 22 })];
    expect(quickJs.run({ texts })).toEqual(texts.map(utf8Length));
  });
});
