/**
 * The engine's hand-written `GiftFunctionInput` against the types the platform's CLI generates
 * from the input query (`shopify app function typegen`: the GraphQL code generator with the
 * `codegen` key of extensions/gift-discount/package.json). What the query returns must be
 * assignable to what the engine reads, so the engine never reads a field the query does not
 * ask for (as it read `localization.market`) or in another shape.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '@graphql-codegen/cli';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { EXTENSION_DIR, ROOT } from '../../scripts/app-config.ts';

type CodegenKey = { schema: string; documents: string; generates: Record<string, { plugins: string[] }>; config: Record<string, unknown> };

const temp = mkdtempSync(join(tmpdir(), 'function-types-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The generated module's text, as typegen writes it to generated/api.ts. */
async function generatedApi(): Promise<string> {
  const codegen = (JSON.parse(readFileSync(join(EXTENSION_DIR, 'package.json'), 'utf8')) as { codegen: CodegenKey }).codegen;
  const [output] = Object.values(codegen.generates);
  const files = await generate(
    {
      cwd: EXTENSION_DIR,
      schema: join(EXTENSION_DIR, codegen.schema),
      documents: join(EXTENSION_DIR, codegen.documents),
      generates: { [join(temp, 'api.ts')]: { plugins: output?.plugins ?? [] } },
      config: codegen.config,
      silent: true,
    },
    false,
  );
  return (files as Array<{ content: string }>)[0]?.content ?? '';
}

/** TypeScript's errors for `check` (a module beside the generated api.ts). */
function typeErrors(check: string): string[] {
  const file = join(temp, 'check.ts');
  writeFileSync(file, check);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const engineInput = join(ROOT, 'packages/engine/src/checkout/function-input.ts');

describe('the input query and the engine', () => {
  it('generates the input type with the codegen config the CLI reads', async () => {
    const api = await generatedApi();
    expect(api).toContain('export type CartLinesDiscountsGenerateRunInput = ');
    writeFileSync(join(temp, 'api.ts'), api);
  });

  it("the query's result is assignable to the engine's GiftFunctionInput", () => {
    const errors = typeErrors(
      [
        `import type { CartLinesDiscountsGenerateRunInput } from './api.ts';`,
        `import type { GiftFunctionInput } from ${JSON.stringify(engineInput)};`,
        'export const read = (input: CartLinesDiscountsGenerateRunInput): GiftFunctionInput => input;',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('the engine reads no field the query does not ask for, but the tolerated spellings of metafields', () => {
    // Every property path of each type (arrays and unions walked); the engine's that the generated
    // type lacks must be exactly the listed ones. Optional fields would pass assignability alone.
    const errors = typeErrors(
      [
        `import type { CartLinesDiscountsGenerateRunInput } from './api.ts';`,
        `import type { GiftFunctionInput } from ${JSON.stringify(engineInput)};`,
        // `any` (the Decimal scalar) and `unknown` (JSON) are leaves.
        'type Paths<T, P extends string = ""> = 0 extends 1 & T ? never : T extends readonly (infer E)[] ? Paths<E, P>',
        '  : T extends object ? { [K in keyof T & string]-?: `${P}${K}` | Paths<NonNullable<T[K]>, `${P}${K}.`> }[keyof T & string] : never;',
        'type EngineOnly = Exclude<Paths<GiftFunctionInput>, Paths<CartLinesDiscountsGenerateRunInput>>;',
        'export const engineOnly: Record<EngineOnly, true> = {',
        "  'cart.buyerIdentity.customer.metafield.jsonValue': true,",
        "  'discount.metafield.value': true,",
        "  'discount.config2.value': true,",
        '};',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('a field the query does not ask for is an error (the check can fail)', () => {
    const errors = typeErrors(
      [
        `import type { CartLinesDiscountsGenerateRunInput } from './api.ts';`,
        `import type { GiftFunctionInput } from ${JSON.stringify(engineInput)};`,
        "type Needs = GiftFunctionInput & { localization: { market: { handle: string } } };",
        'export const read = (input: CartLinesDiscountsGenerateRunInput): Needs => input;',
      ].join('\n'),
    );
    expect(errors.join('\n')).toMatch(/market/);
  });
});
