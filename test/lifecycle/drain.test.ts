/**
 * app.close() drains keep-alive sockets (src/http/drain.ts), in process on a loopback port: a
 * request already in flight gets its normal answer with `Connection: close`; a request that
 * arrives on an idle keep-alive socket while draining gets 503 + `Connection: close` with the
 * service's JSON error body (before: the socket was destroyed under it); a socket whose client
 * sends nothing is closed by the server after the grace.
 */
import { Agent, request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';

const ADMIN = 'drain-in-process-admin-token-01';

type Answer = { status: number; headers: IncomingMessage['headers']; body: string };

function answerOf(req: ReturnType<typeof request>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
  });
}

/** Waits, a turn of the event loop at a time, until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('app.close() under keep-alive clients', () => {
  it('answers the request in flight with Connection: close, a new request on an idle socket 503 + close, and closes a silent socket', async () => {
    const t = await createTestApp({ ADMIN_TOKEN: ADMIN });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const busy = new Agent({ keepAlive: true, maxSockets: 1 });
    const idle = new Agent({ keepAlive: true, maxSockets: 1 });
    const silent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Each agent holds one open keep-alive socket, idle after its first answer.
      for (const agent of [busy, idle, silent]) {
        expect((await answerOf(request(`${base}/healthz`, { agent }).end())).status).toBe(200);
      }
      const [silentSocket] = Object.values(silent.freeSockets).flat();
      const silentClosed = new Promise((resolve) => silentSocket?.once('close', resolve));

      // In flight: headers read, half of the body sent.
      const body = JSON.stringify({ domain: 'drain-in-process.example.com', plan: 'scale' });
      const inFlight = request(`${base}/admin/v1/shops`, {
        method: 'POST',
        agent: busy,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      });
      const arrived = new Promise((resolve) => t.app.server.once('request', resolve));
      const inFlightAnswer = answerOf(inFlight);
      inFlightAnswer.catch(() => undefined); // awaited below; a reset must not surface before then
      inFlight.write(body.slice(0, 10));
      await arrived;

      const closing = t.close();
      await until(() => !t.app.server.listening);

      const late = await answerOf(request(`${base}/admin/v1/shops`, { method: 'POST', agent: idle, headers: { authorization: `Bearer ${ADMIN}` } }).end());
      expect(late.status).toBe(503);
      expect(late.headers.connection).toBe('close');
      expect(JSON.parse(late.body)).toMatchObject({ error: 'Service is shutting down', code: 'unavailable' });

      inFlight.end(body.slice(10));
      const finished = await inFlightAnswer;
      expect(finished.status, finished.body).toBe(201);
      expect(finished.headers.connection).toBe('close');

      await silentClosed;
      await closing;
    } finally {
      for (const agent of [busy, idle, silent]) agent.destroy();
    }
  });
});
