/**
 * A real HTTP receiver for webhook tests (node:http on 127.0.0.1, a free port): it records
 * every request and answers as the test says — a status with headers, or never ('hang').
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
  /** The parsed bodies of requests under `path`. */
  eventsAt(path: string): Array<{ type: string; timestamp: string; data: Record<string, unknown> }>;
  /** The most requests under `path` ever open at once (arrived, not yet answered or dropped). */
  maxOpen(path: string): number;
  close(): Promise<void>;
};

export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const open = new Map<string, { now: number; max: number }>();
  const receiver: Receiver = {
    url: '',
    requests: [],
    respond,
    waitFor(count) {
      if (receiver.requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    eventsAt(path) {
      return receiver.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as ReturnType<Receiver['eventsAt']>[number]);
    },
    maxOpen: (path) => open.get(path)?.max ?? 0,
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
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
      });
      const answer = receiver.respond(request, index);
      for (const waiter of waiters.filter((w) => receiver.requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      if (answer === 'hang') {
        hanging.add(res);
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
