/**
 * The import graph points one way (docs/architecture.md): no file-level circle anywhere, type-only
 * ones included; shared infrastructure imports no feature and not the wiring root; features take
 * from the wiring root only the types of what it hands them; and config.ts alone reads
 * `process.env`. A new circle or upward import fails here, naming the files.
 */
import { describe, expect, it } from 'vitest';
import { importCircles, sourceFacts } from '../support/import-graph.ts';

const SOURCE_FOLDERS = ['src', 'packages/engine/src', 'packages/storefront/src', 'app/src', 'extensions/gift-discount/src'];

/** Shared infrastructure: knows nothing of gifts, campaigns or shops' features. */
const INFRASTRUCTURE = ['src/db/', 'src/http/', 'src/outbox/', 'src/cache/', 'src/redis/', 'src/rate-limit/', 'src/logging/', 'src/ids.ts', 'src/periodic-worker.ts'];
/** The wiring root: reads the configuration, builds every service and mounts every route. */
const WIRING = ['src/config.ts', 'src/context.ts', 'src/app.ts', 'src/routes.ts', 'src/admin-routes.ts', 'src/workers.ts', 'src/platform-jobs.ts', 'src/server.ts', 'src/main.ts', 'src/cli.ts', 'src/cli/', 'src/startup/'];
/** What features may take from the wiring root: types only (the context and config they are handed). */
const HANDED_DOWN = new Set(['src/context.ts', 'src/config.ts']);

/** Who may read `process.env`: config.ts, and the launcher's bundle switches, read before config.ts (and zod) may load. */
const ENV_READERS = ['src/config.ts', 'src/main.ts', 'src/startup/server-bundle.ts'];

const facts = sourceFacts(SOURCE_FOLDERS);
const under = (prefixes: readonly string[]) => (file: string) => prefixes.some((prefix) => file.startsWith(prefix));
const isInfrastructure = under(INFRASTRUCTURE);
const isWiring = under(WIRING);
const isServer = under(['src/']);
const edges = [...facts].flatMap(([file, { imports }]) => imports.map((edge) => ({ from: file, ...edge })));

describe('the import graph', () => {
  it('reads every kind of import, type-only re-exports and namespace re-exports included', () => {
    const targets = (file: string) => facts.get(file)?.imports.map((edge) => `${edge.target} ${edge.typeOnly ? 'type' : 'value'}`);
    expect(targets('packages/engine/src/evaluate/outcomes.ts')).toEqual(
      expect.arrayContaining(['packages/engine/src/evaluate/leaf-outcome.ts type', 'packages/engine/src/evaluate/outcome-table.ts value']),
    );
    expect(targets('src/workers.ts')).toEqual(expect.arrayContaining(['src/context.ts type', 'src/outbox/dispatcher.ts value']));
    expect(facts.get('src/config.ts')?.readsProcessEnv).toBe(true);
  });

  it('finds circles, type-only ones too, and files that import themselves', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    expect(importCircles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });

  it('has no file-level import circle', () => {
    const graph = new Map([...facts].map(([file, { imports }]) => [file, imports.map((edge) => edge.target)]));
    expect(importCircles(graph)).toEqual([]);
  });

  it('shared infrastructure imports no feature and not the wiring root, not even a type', () => {
    const upward = edges.filter((edge) => isInfrastructure(edge.from) && isServer(edge.target) && !isInfrastructure(edge.target));
    expect(upward.map((edge) => `${edge.from} -> ${edge.target}`)).toEqual([]);
  });

  it('features take only the types of the context and config from the wiring root', () => {
    const upward = edges.filter((edge) => isServer(edge.from) && !isWiring(edge.from) && isWiring(edge.target));
    expect(upward.filter((edge) => !(edge.typeOnly && HANDED_DOWN.has(edge.target))).map((edge) => `${edge.from} -> ${edge.target}`)).toEqual([]);
  });

  it('reads process.env only in config.ts (and the launcher)', () => {
    const readers = [...facts].filter(([file, { readsProcessEnv }]) => isServer(file) && readsProcessEnv).map(([file]) => file);
    expect(readers.sort()).toEqual(ENV_READERS);
  });
});
