/**
 * Builds gifts.js, the theme script, as four assets for browsers:
 * - the first load, `gifts.js`: src/script/main.ts and what it imports (the engine's evaluator
 *   and planner, not its Zod schemas nor its trace builder, the cart passes);
 * - three on-demand chunks (CHUNK_ENTRIES), each fetched the first time it is needed, by the URL
 *   its tag's `data-<name>-src` gives (the theme app extension, from Liquid's `asset_url`), else
 *   by the chunk's versioned name beside gifts.js (the service's
 *   `/storefront/v1/gifts-<name>.<hash>.js`), which this build writes into the first load:
 *   `gifts-widgets.js` (toast, gift choice, reminder, promo popup, custom code),
 *   `gifts-progress.js` (the progress bar, when the shop has it on) and `gifts-debug.js` (the
 *   `?svc_debug=1` console: an engine of its own that builds the condition traces).
 * Each is one IIFE bundled by esbuild and minified by terser (about 5 % less gzip than esbuild's
 * minifier, which counts against the first load's 10,000 bytes). Node-only; the server calls it
 * once per process (src/storefront/script-route.ts), `npm run build:embed` writes the theme app
 * extension's assets and `npm run size:storefront` measures them.
 */
import { createHash } from 'node:crypto';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Metafile, Plugin } from 'esbuild';

export type StorefrontAsset = {
  /** The asset's bytes (UTF-8 JavaScript). */
  code: Buffer;
  /** First 16 hex digits of the SHA-256 of `code`: the versioned URL's name. */
  hash: string;
  metafile: Metafile;
};

/** The on-demand chunks, by name: the entry each is built from. */
const CHUNK_ENTRIES = {
  widgets: fileURLToPath(new URL('../src/script/widgets-chunk.ts', import.meta.url)),
  progress: fileURLToPath(new URL('../src/script/progress-chunk.ts', import.meta.url)),
  debug: fileURLToPath(new URL('../src/script/debug-chunk.ts', import.meta.url)),
};

export type ChunkName = keyof typeof CHUNK_ENTRIES;

/** The chunks' names, in the order they are built and listed. */
export const CHUNK_NAMES = Object.keys(CHUNK_ENTRIES) as ChunkName[];

/** The first load, with the on-demand chunks it fetches. */
export type StorefrontScript = StorefrontAsset & { chunks: Record<ChunkName, StorefrontAsset> };

const MAIN_ENTRY = fileURLToPath(new URL('../src/script/main.ts', import.meta.url));

const ENGINE_SRC = fileURLToPath(new URL('../../engine/src/', import.meta.url));

/**
 * The engine's modules this build swaps for a smaller stand-in (same exports, same answers, split
 * modules of the engine itself, each held to its original by a property test in
 * packages/engine/test), keyed by the module's path under packages/engine/src. The script's only
 * input is the payload the server validated, and a page evaluates a few rules a few times:
 * - `read-rule-parts.ts` → `read-rule-parts-trusted.ts`: readers that only fill defaults;
 * - `collection-map.ts` → `collection-map-plain.ts`: the same answers without the server's
 *   per-map indexes and product sets (a page has one map and a few collections);
 * - `condition-program.ts` → `condition-program-interpreted.ts`: the engine's iterative
 *   interpreter runs each tree instead of a flat program built for the server's throughput;
 * - `ids.ts` → `ids-plain.ts`: ids read with regular expressions instead of a hand-written scanner;
 * - `evaluate/outcome-table.ts` → `evaluate/outcome-table-packed.ts`: the same frozen outcomes,
 *   their reason codes written as space-separated lists instead of one call each;
 * - `compile/rules-cache.ts` → `compile/rules-cache-object.ts`: compiled rules memoised by payload
 *   object only, without the server's cache by `version` (a page compiles its one payload once);
 * - `planner/fnv1a.ts` → `planner/fnv1a-encoder.ts`: the experiments' hash over the browser's
 *   TextEncoder bytes instead of a hand-written UTF-8 encoder (kept for runtimes without one);
 * - `evaluate/threshold.ts` → `evaluate/threshold-plain.ts`: a threshold's overrides looked up in
 *   the leaf on each call (first hit wins) instead of two maps built when it compiles;
 * - `rule-trace.ts` → `rule-trace-absent.ts` (all but the debug chunk): the script never asks
 *   the planner for traces; the debug chunk builds them with the real module;
 * - `compile/tree-shape.ts` → `rule-trace-absent.ts` too: only a trace's node budget measures a
 *   condition tree (the interpreted program's size and depth, read lazily).
 */
const ENGINE_STAND_INS: Record<string, string> = {
  'compile/read-rule-parts.ts': 'compile/read-rule-parts-trusted.ts',
  'evaluate/collection-map.ts': 'evaluate/collection-map-plain.ts',
  'compile/condition-program.ts': 'compile/condition-program-interpreted.ts',
  'ids.ts': 'ids-plain.ts',
  'evaluate/outcome-table.ts': 'evaluate/outcome-table-packed.ts',
  'compile/rules-cache.ts': 'compile/rules-cache-object.ts',
  'planner/fnv1a.ts': 'planner/fnv1a-encoder.ts',
  'evaluate/threshold.ts': 'evaluate/threshold-plain.ts',
};
const WITHOUT_TRACES: Record<string, string> = {
  'planner/rule-trace.ts': 'planner/rule-trace-absent.ts',
  'compile/tree-shape.ts': 'planner/rule-trace-absent.ts',
};

function engineStandIns(standIns: Record<string, string>): Plugin {
  return {
    name: 'engine-stand-ins',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/[a-z0-9/.-]+\.ts$/ }, (args) => {
        if (!args.importer.startsWith(ENGINE_SRC)) return undefined;
        const standIn = standIns[relative(ENGINE_SRC, resolve(dirname(args.importer), args.path))];
        // A stand-in may import its own original (collection-map-plain.ts reuses collectionName).
        const path = standIn === undefined ? undefined : join(ENGINE_SRC, standIn);
        return path === undefined || path === args.importer ? undefined : { path };
      });
    },
  };
}

/**
 * Property names terser may shorten in every asset: long names the engine and the script use only
 * inside one asset (the prepared context, the compiled rules, the cart client, the runtime's
 * wiring), never in the payload, the cart API, a `data-*` attribute, an event, `window.svcGifts`
 * or what one asset hands another (widgets-api.ts). Each asset is minified on its own, so a name
 * that crossed would break; none is ever read through a string (bundle-size.test.ts checks the
 * sources for one). −157 B gzip on the first load; −26 B more with the last line (the prepared
 * lines' names, the condition interpreter's frame start, the cart pass's shopper).
 */
export const INTERNAL_PROPERTIES = [
  'nonGiftLines', 'lineCache', 'itemCount', 'productQuantities', 'variantQuantities', 'collectionHits', 'hasSubscriptionLine', 'marketHandle',
  'rulesById', 'experimentOfRule', 'startsAt', 'endsAt', 'program', 'traceNodeLimit', 'availability', 'onPlan',
  'getRedemptions', 'sendEvents', 'getRules', 'getCart', 'debugRequested', 'refusals', 'isRefused', 'refuse', 'loadWidgets', 'loadProgress', 'loadDebug',
  'childStart', 'collectionHandles', 'collectionIds', 'hasSellingPlan', 'shopper',
] as const;

/**
 * ES2021 syntax (`??=` kept as it is): the script already calls ES2022 built-ins
 * (`Object.hasOwn`, `Array.prototype.at`), so no browser that runs it lacks ES2021's syntax;
 * every evergreen browser since 2021 (the platform's themes support no older ones). −16 B.
 */
export const SCRIPT_TARGET = ['es2021'];

/** What the first load should weigh, gzip (CONTRACT part three, the platform's limit for app blocks). */
export const FIRST_LOAD_GOAL_BYTES = 10_000;

/**
 * What the first load may not exceed, gzip: the goal itself, met since issue 21's last cuts
 * (13,787 B when the chunk was split off, 12,878 B with the trusted payload readers, 12,652 B with
 * the outcome table as module exports, 11,177 B with the progress bar and the debug console as
 * chunks and the plain collection map, 10,828 B with the interpreted condition trees and the plain
 * id reader, 10,671 B with the internal property names shortened, 10,625 B without the rule trace
 * helpers, 10,673 B with issue 23 merged, 9,993 B with the minifier settings, the packed outcomes,
 * the absent trace budget and tree measure, the object-only compile memo, the TextEncoder hash and
 * the plain threshold lookup: docs/storefront-script.md "Size").
 */
export const FIRST_LOAD_CEILING_BYTES = FIRST_LOAD_GOAL_BYTES;

/**
 * The progress bar's chunk, gzip: a shop whose bar is seen at first paint (its block in the
 * window, or no block) fetches it before any interaction too (progress-gate.ts), so it may not
 * grow unnoticed either (1,419 B with hand-typed thresholds; 2,006 B since issue 23 derives the
 * steps from the live rules, resolving each threshold's currency and market overrides as the
 * engine does; then the bar's `placement` and its texts' translations, and a tier ladder's steps
 * listed under the bar, issue 23: 2,450 B; 2,644 B since it makes the bar's view of each pass
 * itself, the non-gift subtotal and the currencies, to pay for the gate in the first load).
 */
export const PROGRESS_CHUNK_CEILING_BYTES = 2_700;

/**
 * What a page fetches before any interaction, gzip -9, in the two cases the progress bar's gate
 * tells apart (src/script/progress-gate.ts), each to be read against FIRST_LOAD_GOAL_BYTES: the
 * bar not seen at first paint (its block in a closed cart drawer, or the bar off): gifts.js only;
 * the bar seen at first paint (its block in the window, or no block): gifts.js and its chunk.
 * `npm run size:storefront` and `npm run bench:storefront` print them.
 *
 * @example firstLoadCases(await buildStorefrontScript()) // [{ name: 'bar hidden…', assets: ['gifts.js'], bytes: 9992 }, …]
 */
export function firstLoadCases(script: StorefrontScript): Array<{ name: string; assets: string[]; bytes: number }> {
  const gzip = (code: Uint8Array) => gzipSync(code, { level: 9 }).byteLength;
  return [
    { name: 'bar hidden at first paint (a closed cart drawer) or off', assets: ['gifts.js'], bytes: gzip(script.code) },
    { name: 'bar visible at first paint', assets: ['gifts.js', 'gifts-progress.js'], bytes: gzip(script.code) + gzip(script.chunks.progress.code) },
  ];
}

/**
 * A chunk's name under the service's versioned URL, beside gifts.js.
 *
 * @example chunkFileName('widgets', '3f2a9c0d1e4b5a67') // 'gifts-widgets.3f2a9c0d1e4b5a67.js'
 */
export function chunkFileName(name: ChunkName, hash: string): string {
  return `gifts-${name}.${hash}.js`;
}

/**
 * @example const { code, hash, chunks } = await buildStorefrontScript(); chunks.widgets.hash
 */
export async function buildStorefrontScript(): Promise<StorefrontScript> {
  const built = await Promise.all(
    CHUNK_NAMES.map((name) => buildAsset(CHUNK_ENTRIES[name], {}, name === 'debug' ? ENGINE_STAND_INS : { ...ENGINE_STAND_INS, ...WITHOUT_TRACES })),
  );
  const chunks = Object.fromEntries(CHUNK_NAMES.map((name, index) => [name, built[index]])) as Record<ChunkName, StorefrontAsset>;
  const files = Object.fromEntries(CHUNK_NAMES.map((name) => [name, chunkFileName(name, chunks[name].hash)]));
  const main = await buildAsset(MAIN_ENTRY, { __SVC_CHUNK_FILES__: JSON.stringify(files) }, { ...ENGINE_STAND_INS, ...WITHOUT_TRACES });
  return { ...main, chunks };
}

async function buildAsset(entry: string, define: Record<string, string>, standIns: Record<string, string>): Promise<StorefrontAsset> {
  // Loaded only to build: a server started with a prebuilt script never loads these at start.
  const [{ build }, { minify }] = await Promise.all([import('esbuild'), import('terser')]);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: SCRIPT_TARGET,
    // The engine's sources (no build step), as the rest of the repo resolves them.
    conditions: ['@gcrs/source'],
    define,
    plugins: [engineStandIns(standIns)],
    legalComments: 'none',
    // esbuild's syntax minifier first (it keeps semantics, as terser's safe options do): terser
    // starts from a smaller tree and ends 70 B gzip smaller on the first load.
    minifySyntax: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild produced no output');
  const minified = await minify(output.text, {
    ecma: 2020,
    // Five passes (−29 B against two; a sixth changes nothing). No `unsafe` options: the output
    // must behave exactly as the sources the tests run. Statements left apart (`sequences`) and
    // only simple functions inlined (`inline: 1`) gzip better than terser's defaults: −37 B.
    compress: { passes: 5, sequences: false, inline: 1 },
    mangle: { properties: { regex: new RegExp(`^(?:${INTERNAL_PROPERTIES.join('|')})$`) } },
    format: { comments: false },
  });
  if (minified.code === undefined) throw new Error('terser produced no output');
  const code = Buffer.from(minified.code);
  return { code, hash: scriptHash(code), metafile: result.metafile };
}

/**
 * The versioned URL's name of a built script: the first 16 hex digits of its SHA-256.
 *
 * @example scriptHash(code) // '3f2a9c0d1e4b5a67'
 */
export function scriptHash(code: Uint8Array): string {
  return createHash('sha256').update(code).digest('hex').slice(0, 16);
}
