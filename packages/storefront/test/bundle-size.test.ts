import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CHUNK_NAMES, FIRST_LOAD_CEILING_BYTES, INTERNAL_PROPERTIES, buildStorefrontScript, chunkFileName } from '../scripts/build-script.ts';

const gzip = (code: Uint8Array) => gzipSync(code, { level: 9 }).byteLength;

// CONTRACT part three: the first load (what a page fetches before any interaction) at most
// 10,000 B gzip; FIRST_LOAD_CEILING_BYTES is that goal (npm run size:storefront prints both).
describe('gifts.js assets', () => {
  it('split the widgets, the progress bar and the debug console into on-demand chunks the first load names; no zod, no Node built-in', async () => {
    const script = await buildStorefrontScript();
    expect(gzip(script.code)).toBeLessThanOrEqual(FIRST_LOAD_CEILING_BYTES);
    // What is in an asset's output (the metafile's inputs also list modules tree-shaken away).
    const inOutput = (metafile: typeof script.metafile) =>
      Object.entries(Object.values(metafile.outputs)[0]?.inputs ?? {})
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path);
    const inputs = inOutput(script.metafile);
    const [widgetInputs, progressInputs, debugInputs] = CHUNK_NAMES.map((name) => inOutput(script.chunks[name].metafile));
    if (widgetInputs === undefined || progressInputs === undefined || debugInputs === undefined) throw new Error('a chunk is missing');
    for (const list of [inputs, widgetInputs, progressInputs, debugInputs]) {
      expect(list.filter((path) => path.includes('node_modules/zod/'))).toEqual([]);
      expect(list.filter((path) => path.startsWith('node:'))).toEqual([]);
    }
    // The engine is in the first load: its planner and evaluator, not its schemas.
    expect(inputs).toEqual(expect.arrayContaining(['packages/engine/src/planner/plan-cart.ts', 'packages/engine/src/compile/compile-rules.ts']));
    expect(inputs.filter((path) => /packages\/engine\/src\/schema\/(?!literals|rule-option-defaults)/.test(path))).toEqual([]);
    // Its payload readers only fill defaults (the server validated the payload), its collection map
    // has no indexes, and it builds no condition traces (nor measures trees for their budget), its
    // outcomes are packed and its compiled rules memoised by object only: build-script.ts's stand-ins.
    expect(inputs).toContain('packages/engine/src/compile/read-rule-parts-trusted.ts');
    expect(inputs).not.toContain('packages/engine/src/compile/read-rule-parts.ts');
    expect(inputs).toContain('packages/engine/src/evaluate/collection-map-plain.ts');
    expect(inputs).toContain('packages/engine/src/planner/rule-trace-absent.ts');
    expect(inputs).not.toContain('packages/engine/src/evaluate/trace-condition.ts');
    expect(inputs).not.toContain('packages/engine/src/compile/tree-shape.ts');
    expect(inputs).toContain('packages/engine/src/evaluate/outcome-table-packed.ts');
    expect(inputs).not.toContain('packages/engine/src/compile/rules-cache.ts');
    // The progress bar is its chunk's, and the traces the debug chunk's (with an engine of its own).
    expect(inputs).not.toContain('packages/storefront/src/progress.ts');
    expect(progressInputs).toContain('packages/storefront/src/widgets/progress-bar.ts');
    expect(progressInputs.filter((path) => path.includes('packages/engine/src/planner/'))).toEqual([]);
    expect(debugInputs).toEqual(
      expect.arrayContaining(['packages/engine/src/evaluate/trace-condition.ts', 'packages/engine/src/planner/evaluate-rules.ts', 'packages/engine/src/compile/tree-shape.ts']),
    );
    // The dialogs, the toast, the reminder, the promo popup and custom code are not; the chunk has no engine.
    for (const widget of ['dialog', 'gift-choice', 'toast', 'reminder', 'promo-popup', 'custom-code']) {
      expect(inputs).not.toContain(`packages/storefront/src/widgets/${widget}.ts`);
      expect(widgetInputs).toContain(`packages/storefront/src/widgets/${widget}.ts`);
    }
    expect(widgetInputs.filter((path) => path.includes('packages/engine/src/planner/'))).toEqual([]);
    // The first load knows each chunk's versioned name (the headless URL beside gifts.js).
    for (const name of CHUNK_NAMES) expect(script.code.toString('utf8')).toContain(chunkFileName(name, script.chunks[name].hash));
  }, 60_000);

  it('shortens only property names no source reads through a string', () => {
    const sources = ['../src', '../../engine/src'].flatMap((dir) => {
      const root = new URL(dir, import.meta.url).pathname;
      return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => readFileSync(join(root, file), 'utf8'));
    });
    expect(sources.length).toBeGreaterThan(50);
    for (const name of INTERNAL_PROPERTIES) {
      const quoted = new RegExp(`['"\`]${name}['"\`]`);
      expect(sources.filter((source) => quoted.test(source)).length, name).toBe(0);
    }
  });
});
