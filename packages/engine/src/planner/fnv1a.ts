/**
 * FNV-1a, 32-bit, over the UTF-8 bytes of `text`. Written by hand (no crypto module) so
 * the storefront bundle stays pure and any other language can reproduce an assignment.
 *
 * @example fnv1a32('') // 2166136261 (0x811c9dc5, the offset basis)
 * @example fnv1a32('a') // 3826002220 (0xe40c292c)
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  const mix = (byte: number) => {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  };
  for (let i = 0; i < text.length; i++) {
    let code = text.codePointAt(i) ?? 0;
    if (code > 0xffff) i++; // a surrogate pair is one code point
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd; // lone surrogate: as TextEncoder does
    if (code < 0x80) {
      mix(code);
    } else if (code < 0x800) {
      mix(0xc0 | (code >> 6));
      mix(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      mix(0xe0 | (code >> 12));
      mix(0x80 | ((code >> 6) & 0x3f));
      mix(0x80 | (code & 0x3f));
    } else {
      mix(0xf0 | (code >> 18));
      mix(0x80 | ((code >> 12) & 0x3f));
      mix(0x80 | ((code >> 6) & 0x3f));
      mix(0x80 | (code & 0x3f));
    }
  }
  return hash >>> 0;
}
