/**
 * Draining on shutdown (issue 20 item 4, docs/operations.md "Shutdown under keep-alive load").
 *
 * Why not `server.close()` alone: Node's http `close()` destroys every idle keep-alive socket at
 * once, and a socket is idle for Node until the first byte of its next request has been parsed.
 * A client that had just sent its next request on such a socket got ECONNRESET: 1–2 requests per
 * SIGTERM under keep-alive load, and the client cannot tell an order or an import applied from
 * one never read. Here the server closes a keep-alive socket only where HTTP says the client
 * expects it:
 * 1. the listener stops accepting (new connections are refused: nothing of theirs is read);
 * 2. every answer from now on carries `Connection: close`, including those of requests already
 *    in flight, and Node closes each socket once its answer is flushed; a request that arrives
 *    on an open socket is answered 503 (app.ts) with `Connection: close`;
 * 3. a client that keeps writing gets one of those answers and closes its socket itself; sockets
 *    still idle after DRAIN_IDLE_GRACE_MS (a client that stopped writing) are closed then, with
 *    Node's closeIdleConnections, which spares a socket whose next request has begun to arrive;
 * 4. shutdown goes on once no socket is left.
 * Fastify's options do not do this: `forceCloseConnections: 'idle'` (its default) calls
 * closeIdleConnections itself only with a `serverFactory`, and then at once, as Node's close()
 * does; `true` destroys sockets under requests. `return503OnClosing` is off in app.ts so that
 * the 503 has the service's error body; Fastify still marks requests that begin while it closes
 * with `Connection: close`.
 */
import type { ServerResponse } from 'node:http';
import { Server } from 'node:net';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How long a socket idle at the start of a drain may stay open for its client's next request
 * (answered 503 + close). Clients that keep writing send theirs within a round trip; a client
 * that sends nothing for this long is taken to have stopped, and its socket is closed.
 */
export const DRAIN_IDLE_GRACE_MS = 1000;
/** How often sockets that became idle after the grace are looked for. */
const IDLE_SWEEP_MS = 50;

export type Drain = {
  /** True from the start of app.close(): requests read from now on are answered 503. */
  readonly draining: boolean;
};

/** The response Node is writing on a socket (what closeIdleConnections reads too). */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Makes `app.close()` drain as above before Fastify closes the server.
 *
 * @example
 *   const drain = registerDrain(app);
 *   app.addHook('onRequest', (request, reply, done) => done(drain.draining ? unavailable('…') : undefined));
 */
export function registerDrain(app: FastifyInstance, idleGraceMs = DRAIN_IDLE_GRACE_MS): Drain {
  const state = { draining: false };
  const sockets = new Set<HttpSocket>();
  app.server.on('connection', (socket: HttpSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  app.addHook('preClose', async () => {
    state.draining = true;
    if (!app.server.listening) return;
    // net.Server's close: stops accepting without http's closeIdleConnections (see above).
    // Fastify's own server.close() later finds it closed, which it expects.
    Server.prototype.close.call(app.server);
    for (const socket of sockets) {
      const response = socket._httpMessage;
      if (response && !response.headersSent) response.setHeader('connection', 'close');
    }
    // Requests that begin from now on get `Connection: close` from Fastify (it is closing).
    await allClosedWithin(sockets, idleGraceMs);
    while (sockets.size > 0) {
      app.server.closeIdleConnections();
      await allClosedWithin(sockets, IDLE_SWEEP_MS);
    }
  });
  return state;
}

/** Resolves when `sockets` is empty or after `ms`, whichever comes first. */
function allClosedWithin(sockets: Set<Socket>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (sockets.size === 0) return resolve();
    let left = sockets.size;
    const done = () => {
      clearTimeout(timer);
      for (const socket of sockets) socket.removeListener('close', onClose);
      resolve();
    };
    const onClose = () => {
      left -= 1;
      if (left === 0) done();
    };
    const timer = setTimeout(done, ms);
    for (const socket of sockets) socket.once('close', onClose);
  });
}
