/**
 * The control of `npm run bench:rules`, a process of its own: a bare Fastify with no database,
 * no auth and no limiter, serving the bytes and headers the app sent (given over IPC), with
 * the same 304 logic. The header values are copied from the app's first answer (the request
 * id and rate-limit fields too: the bytes on the wire, not the work of making them), so both
 * sides write, and the client parses, the same header block.
 */
import Fastify from 'fastify';
import { ifNoneMatchHits } from '../src/http/etag.ts';

type Setup = { body: string; etag: string; headers: Record<string, string>; bodyHeaders: Record<string, string> };

process.once('message', (setup: Setup) => {
  const body = Buffer.from(setup.body, 'base64');
  const bare = Fastify({ logger: false });
  bare.get('/api/v1/rules', (request, reply) => {
    reply.headers(setup.headers);
    if (ifNoneMatchHits(request.headers['if-none-match'], setup.etag)) return reply.code(304).send();
    return reply.headers(setup.bodyHeaders).send(body);
  });
  bare.listen({ host: '127.0.0.1', port: 0 }).then(
    () => {
      const address = bare.server.address();
      process.send?.({ type: 'ready', port: typeof address === 'object' && address !== null ? address.port : 0 });
    },
    (error: unknown) => {
      process.stderr.write(`bare server failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stop') void bare.close().then(() => process.exit(0));
  });
});
