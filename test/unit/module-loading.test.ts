/**
 * src/startup/module-loading.ts answers drizzle-orm's relative imports, and remembers the bare
 * drizzle imports of src/, without asking Node. These tests load the server's whole module graph
 * in a child process with a hook that asks Node anyway and compares: the shortcut must give
 * Node's own answer for every import it takes, or it would change what the server runs.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isDrizzleRelativeImport, isOwnDrizzleImport } from '../../src/startup/module-loading.ts';

const root = new URL('../../', import.meta.url);
const moduleUrl = (path: string) => new URL(path, root).href;

describe('module loading shortcuts', () => {
  it('takes only relative .js imports between drizzle-orm files, and bare drizzle imports of src/', () => {
    const drizzleFile = 'file:///app/node_modules/drizzle-orm/pg-core/table.js';
    expect(isDrizzleRelativeImport('./columns/index.js', drizzleFile)).toBe(true);
    expect(isDrizzleRelativeImport('../entity.js', drizzleFile)).toBe(true);
    expect(isDrizzleRelativeImport('pg', drizzleFile)).toBe(false);
    expect(isDrizzleRelativeImport('./x.cjs', drizzleFile)).toBe(false);
    expect(isDrizzleRelativeImport('./x.js', 'file:///app/node_modules/drizzle-orm/index.cjs')).toBe(false);
    expect(isDrizzleRelativeImport('./x.js', 'file:///app/node_modules/zod/index.js')).toBe(false);
    expect(isDrizzleRelativeImport('./x.js', undefined)).toBe(false);
    expect(isOwnDrizzleImport('drizzle-orm', moduleUrl('src/db/database.ts'))).toBe(true);
    expect(isOwnDrizzleImport('drizzle-orm/pg-core', moduleUrl('src/db/schema.ts'))).toBe(true);
    expect(isOwnDrizzleImport('drizzle-orm-extra', moduleUrl('src/db/schema.ts'))).toBe(false);
    expect(isOwnDrizzleImport('drizzle-orm', moduleUrl('test/db/x.ts'))).toBe(false);
    expect(isOwnDrizzleImport('drizzle-orm', moduleUrl('node_modules/x/index.js'))).toBe(false);
  });

  it("resolves every import it takes exactly as Node does, across the server's module graph", () => {
    // Each child loads the server's modules and records every resolution (url and format) with
    // an observing hook; registered last, it runs first and sees what the rest of the chain
    // answers. One child has the shortcut installed, the other has not.
    const script = (shortcut: boolean) => `
      import { registerHooks } from 'node:module';
      import { speedUpModuleLoading, isDrizzleRelativeImport, isOwnDrizzleImport } from ${JSON.stringify(moduleUrl('src/startup/module-loading.ts'))};
      ${shortcut ? 'speedUpModuleLoading();' : ''}
      const seen = {};
      registerHooks({ resolve(specifier, context, nextResolve) {
        const result = nextResolve(specifier, context);
        const taken = isDrizzleRelativeImport(specifier, context.parentURL) || isOwnDrizzleImport(specifier, context.parentURL);
        seen[specifier + ' from ' + context.parentURL] = { url: result.url, format: result.format ?? null, taken };
        return result;
      } });
      await import(${JSON.stringify(moduleUrl('src/context.ts'))});
      await import(${JSON.stringify(moduleUrl('src/app.ts'))});
      await import(${JSON.stringify(moduleUrl('src/workers.ts'))});
      await import(${JSON.stringify(moduleUrl('src/db/migration-state.ts'))});
      await import('drizzle-orm/pglite');
      await import('drizzle-orm/pglite/migrator');
      console.log(JSON.stringify(seen));
    `;
    type Seen = Record<string, { url: string; format: string | null; taken: boolean }>;
    const run = (shortcut: boolean): Seen => {
      const result = spawnSync(process.execPath, ['--conditions=@gcrs/source', '--input-type=module', '-e', script(shortcut)], {
        cwd: fileURLToPath(root),
        encoding: 'utf8',
        env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' },
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Seen;
    };
    const withShortcut = run(true);
    const nodeOwn = run(false);
    const taken = Object.entries(withShortcut).filter(([, seen]) => seen.taken);
    // The shortcut did run: drizzle-orm is hundreds of files.
    expect(taken.length).toBeGreaterThan(300);
    const differing = taken.filter(([key, seen]) => nodeOwn[key]?.url !== seen.url || nodeOwn[key]?.format !== seen.format);
    expect(differing).toEqual([]);
    // And it changed nothing else: the same imports were resolved in both.
    expect(Object.keys(withShortcut).sort()).toEqual(Object.keys(nodeOwn).sort());
  }, 60_000);
});
