/**
 * The JSON body parser: Fastify's own (with its prototype-poisoning guards), except that an
 * empty body is no body, and a body in a content coding is refused.
 *
 * Empty body: SPEC's enable, disable and delete take "No body", and HTTP clients commonly send
 * `Content-Type: application/json` on every request anyway; refusing those with "The body is
 * empty" would fail a call that did exactly what the spec asks. A route that needs a body
 * still answers 400 from its schema ("Invalid request body", `path: []`).
 *
 * Content-Encoding (issue 9 item 6): Fastify does not decode request bodies, so a gzip body
 * was parsed as if it were plain text and answered "Malformed JSON". The service refuses any
 * coding but `identity` with 415 and `Accept-Encoding: identity`, as RFC 9110 §15.5.16 says
 * ("If the problem was caused by an unsupported content coding, the Accept-Encoding response
 * header field ... ought to be used to indicate which (if any) content codings would have been
 * accepted"). Why not decode: request bodies are small JSON (BODY_LIMIT_BYTES, 1 MiB), no
 * client of the spec compresses them, and decoding would need a second, decoded-size limit
 * against zip bombs for no gain.
 *
 * Deferred parse (issue 20 item 5): a route whose config has `deferJson` (the route table's
 * routes with a `fastBody`, POST /evaluate) gets its text as a {@link DeferredJsonBody}, parsed
 * after its caller is known. A body its shortcut accepts is parsed by JSON.parse alone: the
 * shortcut builds fresh objects of known keys (a `__proto__` or `constructor` key is dropped
 * or left to the schema), so the prototype-poisoning scans of Fastify's parser, two regular
 * expressions over the whole text, would protect nothing there. Any other body goes through
 * Fastify's own parser as before, with its scans and its 400s.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

/** True for a Content-Encoding header that names no coding but identity (or none at all). */
function isIdentity(header: string | undefined): boolean {
  if (header === undefined) return true;
  return header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .every((coding) => coding === '' || coding === 'identity');
}

/**
 * The 415 for a body in a content coding, or undefined when the body is uncompressed.
 *
 * @example
 *   const refused = contentEncodingError(request.headers['content-encoding']); // 'gzip' → ApiError 415
 */
export function contentEncodingError(header: string | undefined): ApiError | undefined {
  if (isIdentity(header)) return undefined;
  return new ApiError(
    'unsupported_media_type',
    { error: 'Unsupported content encoding; send the body uncompressed', issue: `Content-Encoding: ${header ?? ''}` },
    { 'Accept-Encoding': 'identity' },
  );
}

type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;

/** A JSON body kept as text until its route parses it (the route config's `deferJson`). */
export class DeferredJsonBody {
  readonly text: string;
  readonly #request: FastifyRequest;
  readonly #parseJson: JsonParser;

  constructor(text: string, request: FastifyRequest, parseJson: JsonParser) {
    this.text = text;
    this.#request = request;
    this.#parseJson = parseJson;
  }

  /**
   * JSON.parse of the text (or `parse`'s, which gives the same), without the
   * prototype-poisoning scans (undefined when it is not JSON): only for a shortcut that builds
   * fresh objects of known keys from it.
   */
  unscanned(parse: (text: string) => unknown = JSON.parse): unknown {
    try {
      // Fastify's parser (secure-json-parse) drops a byte order mark first.
      return parse(this.text.charCodeAt(0) === 0xfeff ? this.text.slice(1) : this.text);
    } catch {
      return undefined;
    }
  }

  /** The text through Fastify's parser, as every other JSON body: its value, or its 400 thrown. */
  checked(): unknown {
    let failure: Error | null = null;
    let value: unknown;
    this.#parseJson(this.#request, this.text, (error, parsed) => {
      failure = error;
      value = parsed;
    });
    if (failure !== null) throw failure;
    return value;
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // No bytes is no body, whatever coding the headers name.
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    const refused = contentEncodingError(request.headers['content-encoding']);
    if (refused) {
      done(refused, undefined);
      return;
    }
    if ((request.routeOptions.config as { deferJson?: boolean }).deferJson === true) {
      done(null, new DeferredJsonBody(text, request, parseJson));
      return;
    }
    parseJson(request, text, done);
  });
}
