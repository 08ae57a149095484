import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

describe('browser bundle', () => {
  it('bundles src/index.ts for the browser without any Node built-in', async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      write: false,
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => path.startsWith('node:'))).toEqual([]);
    // Only our sources and zod may be in the graph.
    const foreign = inputs.filter((path) => path.includes('node_modules/') && !path.includes('node_modules/zod/'));
    expect(foreign).toEqual([]);
  });

  it('leaves the JSON Schema builder out of a storefront bundle of evaluate + plan', async () => {
    const result = await build({
      stdin: { contents: `export { evaluateCondition, planCart } from ${JSON.stringify(entry)};`, resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      platform: 'browser',
      write: false,
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.endsWith('evaluate/evaluate-condition.ts'))).toBe(true);
    // (zod's own JSON Schema code comes with its classic API; our builder must not.)
    expect(inputs.filter((path) => path.includes('packages/engine/src') && path.includes('json-schema'))).toEqual([]);
  });
});
