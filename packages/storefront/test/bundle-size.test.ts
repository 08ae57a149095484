import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_CEILING_BYTES, buildStorefrontScript, widgetsFileName } from '../scripts/build-script.ts';

const gzip = (code: Uint8Array) => gzipSync(code, { level: 9 }).byteLength;

// CONTRACT part three: the first load (what a page fetches before any interaction) toward
// 10,000 B gzip; FIRST_LOAD_CEILING_BYTES is today's bound (npm run size:storefront prints both).
describe('gifts.js assets', () => {
  it('split the widgets that wait for a shopper into an on-demand chunk the first load names; no zod, no Node built-in', async () => {
    const script = await buildStorefrontScript();
    expect(gzip(script.code)).toBeLessThanOrEqual(FIRST_LOAD_CEILING_BYTES);
    const inputs = Object.keys(script.metafile.inputs);
    // What is in the chunk's output (the metafile's inputs also list modules tree-shaken away).
    const widgetInputs = Object.entries(Object.values(script.widgets.metafile.outputs)[0]?.inputs ?? {})
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path);
    for (const list of [inputs, widgetInputs]) {
      expect(list.filter((path) => path.includes('node_modules/zod/'))).toEqual([]);
      expect(list.filter((path) => path.startsWith('node:'))).toEqual([]);
    }
    // The engine is in the first load: its planner and evaluator, not its schemas.
    expect(inputs).toEqual(expect.arrayContaining(['packages/engine/src/planner/plan-cart.ts', 'packages/engine/src/compile/compile-rules.ts']));
    expect(inputs.filter((path) => /packages\/engine\/src\/schema\/(?!literals|rule-option-defaults)/.test(path))).toEqual([]);
    // Its payload readers only fill defaults (the server validated the payload): build-script.ts.
    expect(inputs).toContain('packages/engine/src/compile/read-rule-parts-trusted.ts');
    expect(inputs).not.toContain('packages/engine/src/compile/read-rule-parts.ts');
    // The dialogs, the toast, the reminder, the promo popup and custom code are not; the chunk has no engine.
    for (const widget of ['dialog', 'gift-choice', 'toast', 'reminder', 'promo-popup', 'custom-code']) {
      expect(inputs).not.toContain(`packages/storefront/src/widgets/${widget}.ts`);
      expect(widgetInputs).toContain(`packages/storefront/src/widgets/${widget}.ts`);
    }
    expect(widgetInputs.filter((path) => path.includes('packages/engine/src/planner/'))).toEqual([]);
    // The first load knows the chunk's versioned name (the headless URL beside gifts.js).
    expect(script.code.toString('utf8')).toContain(widgetsFileName(script.widgets.hash));
  }, 60_000);
});
