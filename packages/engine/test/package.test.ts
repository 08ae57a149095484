/**
 * The built package as a consumer outside this repo gets it: `npm pack` (so the `files`
 * list is what is tested), unpacked into a temp project's node_modules next to zod, then
 * imported by plain `node` (no @gcrs/source condition, no type stripping) and type-checked
 * by `tsc` under the two common resolution modes. The build is `npm pack`'s own (`prepack`),
 * once for the file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
// zod's package root (its package.json sits there).
const zodRoot = dirname(require.resolve('zod/package.json'));

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let project = '';
let packedFiles: string[] = [];

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'gcrs-engine-consumer-'));
  // No build step here: `npm pack` must build dist/ itself (the package's `prepack`), so that
  // packing a fresh clone never gives a tarball without code. dist/ is removed first.
  rmSync(join(packageRoot, 'dist'), { recursive: true, force: true });
  const npm = process.env.npm_execpath;
  const packArgs = ['pack', '--json', '--pack-destination', project];
  const packed = npm === undefined ? run('npm', packArgs, packageRoot) : run(process.execPath, [npm, ...packArgs], packageRoot);
  const [info] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
  if (info === undefined) throw new Error('npm pack reported no package');
  packedFiles = info.files.map((file) => file.path);
  const installed = join(project, 'node_modules', '@gcrs', 'engine');
  mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', join(project, info.filename), '-C', installed, '--strip-components=1'], project);
  symlinkSync(zodRoot, join(project, 'node_modules', 'zod'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { '@gcrs/engine': '*', zod: '*' } }));
}, 120_000);

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

const CONSUMER = `
import { evaluateCondition, evaluationContextSchema, planCart, minorUnitExponent } from '@gcrs/engine';
import type { ConditionNode, RulesPayloadInput } from '@gcrs/engine';
import { conditionNodeJsonSchema } from '@gcrs/engine/json-schema';

const tree: ConditionNode = { type: 'AND', children: [{ type: 'cart.subtotal_gte', value: 5000 }, { type: 'line.property_equals', key: 'gift_wrap', value: 'yes' }] };
// The platform's attribute list form, parsed to the object form the evaluator reads.
const ctx = evaluationContextSchema.parse({
  cart: { currency: 'USD', lines: [{ productId: '1', variantId: '11', quantity: 2, price: 3000, attributes: [{ key: 'gift_wrap', value: 'yes' }] }] },
});
const result: { matched: boolean; reasons: string[] } = evaluateCondition(tree, ctx, { baseCurrency: 'USD' });
const payload: RulesPayloadInput = {
  baseCurrency: 'USD',
  rules: [{ id: 'rul_1', campaignId: 'cmp_1', conditionTree: tree, giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/9001', quantity: 1 }] }, options: {} }],
};
const plan = planCart(payload, ctx);
// If a declaration failed to resolve, these would be 'any' and the expected errors would
// not happen; so a consumer with skipLibCheck still proves the types arrive.
export const misuses = () => {
  // @ts-expect-error baseCurrency is a string
  evaluateCondition(tree, ctx, { baseCurrency: 1 });
  // @ts-expect-error the JSON Schema is an object
  conditionNodeJsonSchema.$id.toFixed();
};
console.log(JSON.stringify({ matched: result.matched, operations: plan.operations.map((op) => op.type), huf: minorUnitExponent('HUF'), schema: typeof conditionNodeJsonSchema['$id'] }));
`;

describe('the built package', () => {
  it('packs dist (JavaScript and declarations) and no sources or tests', () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/json-schema.js', 'dist/json-schema.d.ts']));
    expect(packedFiles.filter((path) => !path.startsWith('dist/') && path !== 'package.json' && path !== 'README.md')).toEqual([]);
    expect(packedFiles.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('is imported by plain node (no source condition) and evaluates a rule', () => {
    // Type annotations are erased by hand: this file is plain JavaScript for node.
    const javascript = CONSUMER.replace(/^import type .*$/m, '').replace(/\/\/ @ts-expect-error.*$/gm, '').replace(/: (\{ matched: boolean; reasons: string\[\] \}|ConditionNode|RulesPayloadInput) =/g, ' =');
    writeFileSync(join(project, 'consumer.mjs'), javascript);
    const output = run(process.execPath, ['consumer.mjs'], project);
    expect(JSON.parse(output)).toEqual({ matched: true, operations: ['add'], huf: 2, schema: 'string' });
  });

  it.each([
    ['node16', 'node16'],
    ['esnext', 'bundler'],
  ])('type-checks a TypeScript consumer with module %s and moduleResolution %s', (module, moduleResolution) => {
    const dir = join(project, `ts-${moduleResolution}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'es2022', module, moduleResolution, strict: true, noEmit: true, skipLibCheck: true, types: [], lib: ['es2022', 'dom'] },
        files: ['consumer.ts'],
      }),
    );
    // tsc exits non-zero with the diagnostics on stdout; surface them in the failure.
    let diagnostics = '';
    try {
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
    } catch (error) {
      diagnostics = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(diagnostics).toBe('');
  });
});
