/**
 * A body's representations per content coding (RFC 9110 §8.4): the identity bytes and their
 * gzip and br forms, each with its own strong ETag (§8.8.3: a strong tag names one
 * representation). Compression runs on libuv's thread pool (node:zlib's callback API), never
 * on the event loop: a request that waits for it lets every other request go on.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { ContentCoding } from '../http/accept-encoding.ts';

/** One encoding of the body, ready to write: bytes and their own strong ETag. */
export type RulesRepresentation = { coding: ContentCoding; etag: string; body: Buffer };

export type CompressedCoding = Exclude<ContentCoding, 'identity'>;

/** Compresses `body` into `coding`, off the event loop. */
export type Compressor = (coding: CompressedCoding, body: Buffer) => Promise<Buffer>;

/**
 * Bodies below this are sent as they are in every coding (their tags are the identity's):
 * compression saves a few hundred bytes at most there. It is the threshold of Fastify's own
 * compression plugin. Deciding by size alone gives each coding its tag before compressing, so
 * a 304 never waits for compression.
 */
export const MIN_COMPRESSED_BYTES = 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** How hard each coding works: bodies compressed on demand (rules) or once per process (assets). */
export type CompressionLevels = { gzip: number; brotli: number };

/**
 * On demand, per entry and coding asked for. Measured on 60 KB of varied rules JSON: brotli 5
 * gives 4,176 bytes in 0.47 ms, 9 gives 4,100 bytes in 9.2 ms (20× the CPU for 2% less), 11
 * 3,501 bytes in 78 ms; gzip 6 gives 5,021 bytes in 0.44 ms, 9 4,668 in 0.55 ms, and at 480 KB
 * 2.2 ms against 4.1 ms. docs/performance.md "GET /rules for many shops" has the table.
 */
export const ON_DEMAND_LEVELS: CompressionLevels = { gzip: 6, brotli: 5 };

/** Compressed once per process (the theme script, the merchant admin's assets): the smallest bytes are worth the time. */
export const ONCE_LEVELS: CompressionLevels = { gzip: 9, brotli: 9 };

/**
 * The thread-pool compressor at `levels`.
 *
 * @example
 *   const br = await createCompressor(ON_DEMAND_LEVELS)('br', body);
 */
export function createCompressor(levels: CompressionLevels): Compressor {
  return (coding, body) =>
    coding === 'gzip'
      ? gzipAsync(body, { level: levels.gzip })
      : brotliAsync(body, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: levels.brotli,
            [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
}

/**
 * The strong ETag of `coding` for a body of `size` bytes whose identity tag is `etag`.
 *
 * @example
 *   codingEtag('"shp_1-v1"', 'br', 5000); // '"shp_1-v1-br"'
 *   codingEtag('"shp_1-v1"', 'br', 200); // '"shp_1-v1"' (sent uncompressed)
 */
export function codingEtag(etag: string, coding: ContentCoding, size: number): string {
  return coding === 'identity' || size < MIN_COMPRESSED_BYTES ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/** Every tag `codingEtag` gives the body: any of them in If-None-Match names the current bytes. */
export function allEtags(etag: string, size: number): string[] {
  return [...new Set((['identity', 'gzip', 'br'] as const).map((coding) => codingEtag(etag, coding, size)))];
}

/**
 * The body in every coding at once, compressed off the event loop (the merchant admin's ~1.2 MB
 * of assets, the theme script: built once per process).
 *
 * @example
 *   const { br } = await encodeRepresentationsOffThread('"abc"', bundle);
 */
export async function encodeRepresentationsOffThread(etag: string, body: Buffer): Promise<Record<ContentCoding, RulesRepresentation>> {
  const identity: RulesRepresentation = { coding: 'identity', etag, body };
  if (body.length < MIN_COMPRESSED_BYTES) return { identity, gzip: identity, br: identity };
  const compress = createCompressor(ONCE_LEVELS);
  const [gzipped, brotli] = await Promise.all([compress('gzip', body), compress('br', body)]);
  return {
    identity,
    gzip: { coding: 'gzip', etag: codingEtag(etag, 'gzip', body.length), body: gzipped },
    br: { coding: 'br', etag: codingEtag(etag, 'br', body.length), body: brotli },
  };
}

/** A body's representations, compressed as they are asked for (the rules cache's entries). */
export type OnDemandRepresentations = {
  identity: RulesRepresentation;
  /** The strong ETag of each coding, known before any compression. */
  tags: Record<ContentCoding, string>;
  /** Every tag of the body: any of them in If-None-Match names the current bytes. */
  etags: readonly string[];
  /**
   * The body in `coding`: at once when it is ready, else compressed off the event loop, once
   * whoever asks meanwhile.
   */
  representation(coding: ContentCoding): RulesRepresentation | Promise<RulesRepresentation>;
};

/**
 * The identity at once, each compressed coding on its first demand, by `hooks.compress`;
 * `hooks.compressed` hears the size of each form made (the cache counts it).
 *
 * @example
 *   const rep = onDemandRepresentations('"a"', body, { compress, compressed: () => {} });
 *   const br = await rep.representation('br'); // compressed once, then ready
 */
export function onDemandRepresentations(etag: string, body: Buffer, hooks: { compress: Compressor; compressed: (bytes: number) => void }): OnDemandRepresentations {
  const identity: RulesRepresentation = { coding: 'identity', etag, body };
  const tags = { identity: etag, gzip: codingEtag(etag, 'gzip', body.length), br: codingEtag(etag, 'br', body.length) };
  const ready: Partial<Record<ContentCoding, RulesRepresentation>> = { identity };
  if (tags.gzip === etag) ready.gzip = identity;
  if (tags.br === etag) ready.br = identity;
  const pending: Partial<Record<CompressedCoding, Promise<RulesRepresentation>>> = {};
  const encode = (coding: CompressedCoding): Promise<RulesRepresentation> => {
    const promise = hooks.compress(coding, body).then(
      (compressed): RulesRepresentation => {
        const representation: RulesRepresentation = { coding, etag: tags[coding], body: compressed };
        ready[coding] = representation;
        hooks.compressed(compressed.length);
        return representation;
      },
      // zlib failing on bytes we serialized is a bug, not the client's: it gets the identity
      // (every client accepts it), and the next request tries again.
      () => identity,
    );
    pending[coding] = promise;
    void promise.then(() => delete pending[coding]);
    return promise;
  };
  return {
    identity,
    tags,
    etags: allEtags(etag, body.length),
    representation: (coding) => ready[coding] ?? (coding === 'identity' ? identity : (pending[coding] ?? encode(coding))),
  };
}
