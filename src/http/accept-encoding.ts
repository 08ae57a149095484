/**
 * Content negotiation of a response's content coding (RFC 9110 §12.5.3 Accept-Encoding):
 * `br` and `gzip` are offered for bodies kept precompressed (GET /rules); everything else is
 * sent as is. A coding with `q=0` is refused, `*` stands for any coding not listed, and a
 * missing header means "no preference", which we answer with the identity (many clients
 * that send no Accept-Encoding cannot decode anything else).
 */

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Codings we can send, best first at equal q: brotli is ~15% smaller than gzip on JSON. */
const OFFERED = ['br', 'gzip'] as const;

/**
 * The q-value the header gives each coding named in it (lower-cased), `*` included.
 *
 * @example
 *   parseAcceptEncoding('gzip;q=0.5, br'); // Map { 'gzip' => 0.5, 'br' => 1 }
 */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*([0-9.]+)$/i.exec(param);
      if (match) q = Math.min(1, Math.max(0, Number(match[1])));
      if (Number.isNaN(q)) q = 0;
    }
    weights.set(name.toLowerCase(), q);
  }
  return weights;
}

/** Headers already negotiated (at most 256 of at most 200 characters: a few KB). */
const MAX_REMEMBERED = 256;
const MAX_REMEMBERED_LENGTH = 200;
const chosen = new Map<string, ContentCoding>();

/**
 * The coding to send for this Accept-Encoding: the highest-q offered coding the client
 * accepts (`br` before `gzip` at equal q), else the identity.
 *
 * @example
 *   chooseContentCoding('gzip, deflate, br;q=0.9'); // 'gzip'
 *   chooseContentCoding(undefined); // 'identity'
 */
export function chooseContentCoding(header: string | string[] | undefined): ContentCoding {
  if (header === undefined) return 'identity';
  const text = Array.isArray(header) ? header.join(', ') : header;
  // Clients send the same few headers over and over: each is parsed once (GET /rules is the
  // hot path; parsing was ~2% of its CPU). Bounded: cleared when a client sends many new ones.
  const known = chosen.get(text);
  if (known !== undefined) return known;
  const coding = negotiate(text);
  if (text.length > MAX_REMEMBERED_LENGTH) return coding;
  if (chosen.size >= MAX_REMEMBERED) chosen.clear();
  chosen.set(text, coding);
  return coding;
}

function negotiate(text: string): ContentCoding {
  if (text.trim() === '') return 'identity';
  const weights = parseAcceptEncoding(text);
  const wildcard = weights.get('*') ?? 0;
  let best: ContentCoding = 'identity';
  let bestQ = 0;
  for (const coding of OFFERED) {
    const q = weights.get(coding) ?? wildcard;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}
