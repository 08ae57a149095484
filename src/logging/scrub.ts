/**
 * Secrets never reach the log, at any level (issue 9 item 5). What scrubbing covers:
 * - strings anywhere in a log call (messages, fields, error messages, stacks, causes): API keys
 *   (`gcr_…`) and storefront tokens (`spk_…`), kept to their loggable prefix, webhook secrets (`whsec_…`),
 *   the merchant admin's login links and session cookies (`gcl_…`, `gcs_…`), the
 *   platform's Admin API access tokens (`shpat_…`, `shpca_…`, `shppa_…`, `shpua_…`), bearer tokens, the
 *   credential headers of a raw request dump, 64-hex key hashes, and any configured secret
 *   (the admin token, the platform app secret) verbatim;
 * - fields whose name says they hold a secret or raw input (`authorization`, `cookie`,
 *   `x-storefront-token`, `webhook-signature`, `secret`, `keyHash`, `key`, `accessToken`,
 *   `x-shopify-access-token`, `sealedToken`), replaced whole;
 * - errors: a failed query's parameters (drizzle appends "params: …" to its message and keeps
 *   them in `params`), Node's `rawPacket` of a malformed request, and the row values PostgreSQL
 *   quotes in a unique-violation `detail`.
 * Invariant: only plain objects, arrays and errors are walked; other instances (a request, a
 * socket) are left to their serializers, which never include headers or bodies.
 */

export const REDACTED = '[REDACTED]';

/** Field names whose values are never logged, compared case-insensitively. */
const SECRET_FIELDS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'x-storefront-token',
  'webhook-signature',
  'secret',
  'keyhash',
  'key_hash',
  'key',
  'token',
  'admintoken',
  'password',
  'accesstoken',
  'access_token',
  'x-shopify-access-token',
  'sealedtoken',
  'sealed_token',
]);

/** Raw request input carried by errors: never logged, even scrubbed. */
const DROPPED_FIELDS = new Set(['params', 'parameters', 'rawpacket', 'body']);

const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // A failed query's parameter list (drizzle's message), up to the end of that line.
  [/(\bparams: )[^\n]*/g, `$1${REDACTED}`],
  [/\b(gcr_[0-9A-Za-z]{16}_[0-9A-Za-z]{4})[0-9A-Za-z]{28}\b/g, `$1${REDACTED}`],
  // Anything else key-like (a truncated or malformed key), but not a prefix masked above.
  [/\bgcr_(?![0-9A-Za-z]{16}_[0-9A-Za-z]{4}\[)[0-9A-Za-z_]{8,}/g, `gcr_${REDACTED}`],
  // Publishable storefront tokens: public by design, but they spend a shop's storefront quota.
  [/\b(spk_[0-9A-Za-z]{16}_[0-9A-Za-z]{4})[0-9A-Za-z]{28}\b/g, `$1${REDACTED}`],
  [/\bwhsec_[A-Za-z0-9+/=_-]*/g, `whsec_${REDACTED}`],
  // The merchant admin's login-link tokens and session cookies (a request line carries the link).
  [/\b(gc[ls]_)[0-9A-Za-z_]{8,}/g, `$1${REDACTED}`],
  // The platform's Admin API access tokens: the prefix says which kind, the rest is the secret.
  [/\b(shp(?:at|ca|pa|ua|ss)_)[A-Za-z0-9_-]+/g, `$1${REDACTED}`],
  [/\b(Bearer|Basic)\s+[^\s"',]+/gi, `$1 ${REDACTED}`],
  // Credential headers in a raw HTTP dump.
  [/^((?:authorization|cookie|x-storefront-token|webhook-signature|x-shopify-access-token)\s*:)[^\r\n]*/gim, `$1 ${REDACTED}`],
  [/\b[0-9a-f]{64}\b/gi, REDACTED],
  // PostgreSQL's "Key (key_hash)=(…) already exists."
  [/(\bKey \([^)]*\)=\().*?(\)(?: already exists| is not present|\s*$))/g, `$1${REDACTED}$2`],
];

export type Scrubber = {
  /** Masks every secret in `text`. */
  text(text: string): string;
  /** A copy of `value` fit to log: see the file comment for what is masked or dropped. */
  value(value: unknown): unknown;
};

/**
 * Builds a scrubber that also masks each of `secrets` (ignored when shorter than 8 characters,
 * which would mask ordinary words).
 *
 * @example
 *   createScrubber([config.adminToken]).text('Bearer gcr_…'); // 'Bearer [REDACTED]'
 */
export function createScrubber(secrets: ReadonlyArray<string | undefined>): Scrubber {
  const literals = secrets.filter((s): s is string => s !== undefined && s.length >= 8);

  const text = (input: string): string => {
    let out = input;
    for (const literal of literals) out = out.split(literal).join(REDACTED);
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  };

  const walk = (input: unknown, depth: number, seen: WeakSet<object>): unknown => {
    if (typeof input === 'string') return text(input);
    if (input === null || typeof input !== 'object') return input;
    if (seen.has(input) || depth > 8) return '[Circular or too deep]';
    const isError = input instanceof Error;
    const isPlain = Array.isArray(input) || [Object.prototype, null].includes(Object.getPrototypeOf(input) as object | null);
    if (!isError && !isPlain) return input;
    seen.add(input);
    if (Array.isArray(input)) return input.map((item) => walk(item, depth + 1, seen));
    const out: Record<string, unknown> = {};
    if (isError) {
      // What pino's error serializer would show, built here so it can be scrubbed.
      out.type = input.constructor.name;
      out.message = text(input.message);
      if (input.stack !== undefined) out.stack = text(input.stack);
      if (input.cause !== undefined) out.cause = walk(input.cause, depth + 1, seen);
    }
    for (const [name, field] of Object.entries(input)) {
      const lower = name.toLowerCase();
      if (isError && (DROPPED_FIELDS.has(lower) || name in out)) continue;
      out[name] = SECRET_FIELDS.has(lower) && field !== undefined && field !== null ? REDACTED : walk(field, depth + 1, seen);
    }
    return out;
  };

  return { text, value: (input) => walk(input, 0, new WeakSet()) };
}
