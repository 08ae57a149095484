/**
 * Request logging at each level (src/app.ts gives Fastify no logger when LOG_LEVEL=silent):
 * at info every request is logged with its X-Request-Id; a level that hides info logs no
 * successful request; silent logs nothing and still gives every answer its request id.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';
import type { TestApp } from '../support/test-app.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function rulesRequestLogs(level: string) {
  const lines: string[] = [];
  const t = await createTestApp({ LOG_LEVEL: level }, { logDestination: { write: (chunk: string) => void lines.push(chunk) } });
  apps.push(t);
  const shop = await t.createShop('scale');
  lines.length = 0;
  const res = await t.api(shop, { method: 'GET', url: '/api/v1/rules' });
  expect(res.statusCode).toBe(200);
  const requestId = res.headers['x-request-id'];
  expect(requestId).toMatch(/^req_[0-9A-Za-z]{16}$/);
  return { requestId, logs: lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('request logs', () => {
  it('at info: the request is logged on its way in and out, under its X-Request-Id', async () => {
    const { requestId, logs } = await rulesRequestLogs('info');
    const mine = logs.filter((entry) => entry.reqId === requestId);
    expect(mine.map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);
    expect(mine[1]).toMatchObject({ res: { statusCode: 200 } });
  });

  it('at warn: a successful request writes nothing', async () => {
    const { logs } = await rulesRequestLogs('warn');
    expect(logs).toEqual([]);
  });

  it('at silent: nothing is written, and the answer still has its request id', async () => {
    const { logs } = await rulesRequestLogs('silent');
    expect(logs).toEqual([]);
  });
});
