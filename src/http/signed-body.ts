/**
 * Bodies signed by the platform (base64 HMAC-SHA256 of the raw bytes in a header), read so that
 * a caller without the secret cannot make the instance hold much (issue 20 item 3):
 * 1. a request whose signature header is missing or is not a base64 SHA-256 digest is refused
 *    with 401 before a byte of its body is read (Node discards the body as it arrives);
 * 2. a body above SMALL_BODY_BYTES (or of unknown length) is read only inside the
 *    unverified-body budget (http/body-budget.ts): one that does not fit waits, unread, for
 *    earlier ones;
 * 3. the HMAC is computed chunk by chunk as the body streams in; the chunks are joined into one
 *    Buffer only once the digest matches, so a body signed with anything else is dropped as its
 *    last byte arrives, never copied.
 * The route's own limit (413), Content-Length mismatches (400) and content codings (415) are
 * answered as Fastify's byte parser answers them.
 */
import { createHmac } from 'node:crypto';
import type { Readable } from 'node:stream';
import { errorCodes } from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hmacMatches, hmacSha256 } from './hmac.ts';
import type { BodyBudget } from './body-budget.ts';
import { unauthorized } from './errors.ts';
import { contentEncodingError } from './json-body.ts';

export type SignedBodyOptions = {
  /** The HMAC key (PLATFORM_APP_SECRET). */
  secret: string;
  /** The header carrying the base64 signature, lower case. */
  header: string;
  /** Bounds the bytes held before their signature is known, across every signed route. */
  budget: BodyBudget;
};

/** A raw body whose signature matched; routes read it with `signedBodyOf`. */
class SignedBody {
  readonly raw: Buffer;
  constructor(raw: Buffer) {
    this.raw = raw;
  }
}

/** Bodies up to this size (declared by Content-Length) are read without waiting for the budget. */
const SMALL_BODY_BYTES = 64 * 1024;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SHA256_BYTES = 32;

/** Whether a header could be a base64 SHA-256 digest at all (the cheap check before reading). */
function wellFormedSignature(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.trim();
  return BASE64.test(text) && Buffer.from(text, 'base64').length === SHA256_BYTES;
}

/**
 * Makes `scope` (an encapsulated plugin) verify the signature of every request's body while
 * reading it; its handlers get the verified bytes from `signedBodyOf(request)`.
 *
 * @example
 *   await app.register(async (scope) => {
 *     keepSignedRawBody(scope, { secret, header: 'x-shopify-hmac-sha256', budget });
 *     scope.post(path, async (request) => handle(signedBodyOf(request)));
 *   });
 */
export function keepSignedRawBody(scope: FastifyInstance, options: SignedBodyOptions): void {
  const { secret, header } = options;
  scope.removeAllContentTypeParsers();
  // Callback style: an async hook costs a promise on every request.
  scope.addHook('onRequest', (request, _reply, done) => {
    done(wellFormedSignature(request.headers[header]) ? undefined : unauthorized());
  });
  scope.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) => readSigned(request, payload, options));
  // A request without a body never reaches the parser: its signature is that of no bytes.
  const emptySignature = hmacSha256(secret, Buffer.alloc(0));
  scope.addHook('preHandler', (request, _reply, done) => {
    if (request.body instanceof SignedBody) return done();
    if (!hmacMatches(request.headers[header], emptySignature, 'base64')) return done(unauthorized());
    request.body = new SignedBody(Buffer.alloc(0));
    done();
  });
}

/**
 * The verified raw body of a request in a `keepSignedRawBody` scope.
 *
 * @example
 *   const raw = signedBodyOf(request);
 */
export function signedBodyOf(request: { body: unknown }): Buffer {
  if (request.body instanceof SignedBody) return request.body.raw;
  // keepSignedRawBody's hooks run before any handler of its scope: this is a wiring bug.
  throw new Error('signedBodyOf: the route is not in a keepSignedRawBody scope');
}

async function readSigned(request: FastifyRequest, payload: Readable, options: SignedBodyOptions): Promise<SignedBody> {
  const limit = request.routeOptions.bodyLimit;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  const encoding = request.headers['content-encoding'];
  if (declared > 0) {
    const refused = contentEncodingError(encoding);
    if (refused) throw refused;
  }

  // A client that goes away while its body waits for the budget gives its place up.
  const gone = new AbortController();
  const onClose = () => gone.abort(new Error('client closed the connection'));
  request.raw.socket.once('close', onClose);
  let release: () => void;
  try {
    // A small declared body is read at once, outside the budget: a few slow uploads of large
    // bodies holding the budget then delay only other large bodies, never the platform's
    // ordinary deliveries; what a connection can make the instance hold stays SMALL_BODY_BYTES.
    release = declared <= SMALL_BODY_BYTES ? () => undefined : await options.budget.reserve(Number.isNaN(declared) ? limit : declared, gone.signal);
  } finally {
    request.raw.socket.removeListener('close', onClose);
  }
  try {
    const hmac = createHmac('sha256', options.secret);
    const { chunks, length } = await readChunks(payload, limit, (chunk) => hmac.update(chunk));
    if (!Number.isNaN(declared) && length !== declared) throw new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
    const refused = length > 0 ? contentEncodingError(encoding) : undefined;
    if (refused) throw refused;
    if (!hmacMatches(request.headers[options.header], hmac.digest(), 'base64')) throw unauthorized();
    return new SignedBody(Buffer.concat(chunks, length));
  } finally {
    release();
  }
}

/**
 * Reads `payload` to its end, handing each chunk to `onChunk`; rejects with 413 past `limit`
 * bytes. Listeners rather than `for await`: leaving an async iterator destroys the socket, and
 * the 413 would never be sent (Node discards the rest of the body after the answer).
 */
function readChunks(payload: Readable, limit: number, onChunk: (chunk: Buffer) => void): Promise<{ chunks: Buffer[]; length: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      payload.removeListener('close', onClose);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      length += bytes.length;
      if (length > limit) {
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      onChunk(bytes);
      chunks.push(bytes);
    };
    const onEnd = () => {
      stop();
      resolve({ chunks, length });
    };
    const onError = (error: Error & { statusCode?: number }) => {
      stop();
      // As Fastify's own reader: a broken upload is the client's fault.
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      reject(error);
    };
    // Closed without 'end' or 'error' (the client went away): nothing more will come.
    const onClose = () => {
      stop();
      reject(Object.assign(new Error('request closed before its body ended'), { statusCode: 400 }));
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.on('close', onClose);
    payload.resume();
  });
}
