/**
 * A real HTTP receiver for webhook tests (node:http on 127.0.0.1, a free port): it records
 * every request and answers as the test says — a status with headers, or never ('hang') until
 * the test releases or drops it. Tests wait on its events (`arrived`), never on the clock.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** WEBHOOK_ALLOWED_HOSTS of a service whose webhooks go to these receivers (they listen on 127.0.0.1). */
export const LOOPBACK_RECEIVERS = '127.0.0.1';

export type ReceivedRequest = { path: string; headers: IncomingHttpHeaders; body: string; receivedAt: number };
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';
export type Responder = (request: ReceivedRequest, index: number) => Answer;

export type Receiver = {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: ReceivedRequest[];
  respond: Responder;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void>;
  /**
   * Resolves once `count` requests under `path` have arrived. The wait is an event, not a
   * deadline: `giveUpMs` only turns a hung test into a clear message, so keep it generous.
   */
  arrived(path: string, count: number, giveUpMs?: number): Promise<void>;
  /** The parsed bodies of requests under `path`. */
  eventsAt(path: string): Array<{ type: string; timestamp: string; data: Record<string, unknown> }>;
  /**
   * The most requests under `path` ever open at once (arrived, not yet answered or dropped).
   * A request counts from its arrival to the receiver seeing its connection close; a client
   * that gave up has closed it on the wire before it knows of its timeout, but this process may
   * read that close after a request that came later on another connection.
   */
  maxOpen(path: string): number;
  /** Requests under `path` open now. */
  openNow(path: string): number;
  /** Answers the oldest hanging request under `path`; false if none hangs there. */
  release(path: string, status?: number): boolean;
  /** Closes the connection of every hanging request, so its client's attempt ends at once. */
  dropHanging(): void;
  close(): Promise<void>;
};

/** Generous: arrivals are events; this only names what a hung test was waiting for. */
const GIVE_UP_MS = 15_000;

export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const hanging: Array<{ path: string; res: ServerResponse }> = [];
  const waiters: Array<{ path?: string; count: number; resolve: () => void }> = [];
  const open = new Map<string, { now: number; max: number }>();
  const countAt = (path?: string) => (path === undefined ? receiver.requests.length : receiver.requests.filter((r) => r.path === path).length);
  const receiver: Receiver = {
    url: '',
    requests: [],
    respond,
    waitFor(count) {
      if (receiver.requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    arrived(path, count, giveUpMs = GIVE_UP_MS) {
      if (countAt(path) >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${countAt(path)} of ${count} requests at ${path} after ${giveUpMs} ms`)), giveUpMs);
        waiters.push({ path, count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    eventsAt(path) {
      return receiver.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as ReturnType<Receiver['eventsAt']>[number]);
    },
    maxOpen: (path) => open.get(path)?.max ?? 0,
    openNow: (path) => open.get(path)?.now ?? 0,
    release(path, status = 200) {
      const index = hanging.findIndex((held) => held.path === path);
      const [held] = index === -1 ? [] : hanging.splice(index, 1);
      if (!held) return false;
      held.res.writeHead(status);
      held.res.end('ok');
      return true;
    },
    dropHanging() {
      for (const { res } of hanging.splice(0)) res.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        receiver.dropHanging();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      const index = receiver.requests.push(request) - 1;
      const counter = open.get(request.path) ?? { now: 0, max: 0 };
      open.set(request.path, counter);
      counter.now += 1;
      counter.max = Math.max(counter.max, counter.now);
      // 'close' fires once whether the answer was sent or the client gave up.
      res.on('close', () => {
        counter.now -= 1;
        const at = hanging.findIndex((held) => held.res === res);
        if (at !== -1) hanging.splice(at, 1);
      });
      const answer = receiver.respond(request, index);
      for (const waiter of waiters.filter((w) => countAt(w.path) >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      if (answer === 'hang') {
        hanging.push({ path: request.path, res });
        return;
      }
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end('ok');
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver has no port');
  receiver.url = `http://127.0.0.1:${address.port}`;
  return receiver;
}
