/**
 * A load generator in a process of its own (so its buffers never count in the server's memory):
 * sends `count` concurrent POSTs of one `bytes`-long JSON body to `url` with `headers`, and
 * prints one JSON line `{ statuses, errors }` when every request has ended.
 *
 *   node test/platform-webhooks/flood-client.ts '{"url":"http://127.0.0.1:3000/x","count":60,"bytes":8388608,"headers":{}}'
 */
import { request } from 'node:http';

type Flood = { url: string; count: number; bytes: number; headers: Record<string, string> };

const flood = JSON.parse(process.argv[2] ?? '{}') as Flood;
const prefix = '{"pad":"';
const suffix = '"}';
const body = Buffer.alloc(flood.bytes, 'x');
body.write(prefix, 0);
body.write(suffix, flood.bytes - suffix.length);

function send(): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(flood.url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...flood.headers },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end(body);
  });
}

const results = await Promise.all(Array.from({ length: flood.count }, () => send()));
const statuses: Record<string, number> = {};
for (const result of results) statuses[String(result)] = (statuses[String(result)] ?? 0) + 1;
process.stdout.write(`${JSON.stringify({ statuses })}\n`);
