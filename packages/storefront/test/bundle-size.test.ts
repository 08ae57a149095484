import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildStorefrontScript } from '../scripts/build-script.ts';

// Issue 10: the whole theme script at most 45 KB gzip (npm run size:storefront prints it).
const BUDGET_BYTES = 45 * 1024;

describe('gifts.js bundle', () => {
  it('is at most 45 KB gzip, has no zod, and no Node built-in', async () => {
    const { code, metafile } = await buildStorefrontScript();
    expect(gzipSync(code, { level: 9 }).byteLength).toBeLessThanOrEqual(BUDGET_BYTES);
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((path) => path.includes('node_modules/zod/'))).toEqual([]);
    expect(inputs.filter((path) => path.startsWith('node:') || path.includes('<define:'))).toEqual([]);
    // The engine is inside: its planner and evaluator, not its schemas.
    expect(inputs).toEqual(expect.arrayContaining(['packages/engine/src/planner/plan-cart.ts', 'packages/engine/src/compile/compile-rules.ts']));
    expect(inputs.filter((path) => /packages\/engine\/src\/schema\/(?!literals|rule-option-defaults)/.test(path))).toEqual([]);
  }, 60_000);
});
