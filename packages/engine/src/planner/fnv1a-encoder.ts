/**
 * fnv1a.ts for the storefront bundle (packages/storefront/scripts/build-script.ts): the same hash
 * over the UTF-8 bytes the browser's TextEncoder gives (a lone surrogate as U+FFFD, as fnv1a.ts
 * writes by hand for runtimes without one, e.g. the checkout function). Held to fnv1a.ts by
 * test/storefront-stand-ins.test.ts.
 */

// The browser's global (Node has it too); the engine's own build types no DOM.
declare const TextEncoder: new () => { encode(text: string): Uint8Array };

/**
 * @example fnv1a32('a') // 3826002220 (0xe40c292c)
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}
