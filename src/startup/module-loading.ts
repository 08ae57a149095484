/**
 * Two things that make loading the service's ~1,300 modules cheaper, installed by `src/main.ts`
 * before anything else is imported. Neither changes what is loaded, only how fast.
 *
 * 1. Node's compile cache (`module.enableCompileCache`): the compiled code of every module, and
 *    the type-stripped text of our TypeScript files, kept in the OS temp directory and reused by
 *    the next start. Node checks each entry against the file's content hash. Setting
 *    NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 * 2. Relative imports inside drizzle-orm resolved without Node's package-scope lookup. For every
 *    `.js` file it resolves, Node 24 looks up the nearest package.json to learn the module type,
 *    and the lookup re-parses that package.json's `exports` (`getPackageScopeConfig` spreads an
 *    object whose `exports` is a parsing getter). drizzle-orm's package.json is 179 KB of
 *    exports and the service loads ~470 of its files: ~0.4 s of JSON.parse at every start,
 *    the largest single cost of a start on an existing directory (docs/performance.md "Start
 *    time and memory"). Its package.json says `"type": "module"`, so a relative `./x.js` of one
 *    of its ESM files is that file, as an ES module; the hook answers exactly that. The ~35
 *    bare `drizzle-orm/…` imports of our own `src/` files all resolve against the one
 *    node_modules above `src/`, so each specifier is resolved by Node once and remembered.
 *    Every other specifier is left to Node.
 */
import { enableCompileCache, flushCompileCache, registerHooks } from 'node:module';
import type { ResolveFnOutput } from 'node:module';

const DRIZZLE_ESM = '/node_modules/drizzle-orm/';
const OWN_SOURCE = new URL('../', import.meta.url).href;

/** Whether `specifier`, imported by `parentURL`, is a relative ESM import between drizzle-orm's own files. */
export function isDrizzleRelativeImport(specifier: string, parentURL: string | undefined): boolean {
  return (
    parentURL !== undefined &&
    parentURL.startsWith('file://') &&
    parentURL.includes(DRIZZLE_ESM) &&
    parentURL.endsWith('.js') &&
    (specifier.startsWith('./') || specifier.startsWith('../')) &&
    specifier.endsWith('.js')
  );
}

/** Whether `specifier` is a bare drizzle-orm import of one of our own `src/` files. */
export function isOwnDrizzleImport(specifier: string, parentURL: string | undefined): boolean {
  return (
    parentURL !== undefined &&
    parentURL.startsWith(OWN_SOURCE) &&
    !parentURL.includes('/node_modules/') &&
    (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/'))
  );
}

/**
 * Installs both; call before importing anything else, and `flushModuleCaches()` once started.
 *
 * @example
 *   speedUpModuleLoading(); await import('./server.ts'); flushModuleCaches();
 */
export function speedUpModuleLoading(): void {
  enableCompileCache();
  const ownDrizzleImports = new Map<string, ResolveFnOutput>();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (isDrizzleRelativeImport(specifier, context.parentURL)) {
        return { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true };
      }
      if (isOwnDrizzleImport(specifier, context.parentURL)) {
        const key = `${specifier}\0${context.conditions.join(',')}`;
        const known = ownDrizzleImports.get(key);
        if (known) return { ...known, shortCircuit: true };
        const resolved = nextResolve(specifier, context);
        ownDrizzleImports.set(key, resolved);
        return resolved;
      }
      return nextResolve(specifier, context);
    },
  });
}

/** Writes the compile cache now, so a server that is later killed still leaves it for the next start. */
export function flushModuleCaches(): void {
  flushCompileCache();
}
