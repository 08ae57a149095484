/**
 * "Every side effect must survive a crash": a dispatcher dies in the middle of a batch (one
 * delivery answered, the others hanging); after its lease runs out a new dispatcher delivers
 * every remaining event with its original webhook-id, and nothing is sent while the lease holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LEASE_MS } from '../../src/outbox/dispatcher.ts';
import type { FetchLike } from '../../src/webhooks/guarded-fetch.ts';
import { createWebhookSetup } from './setup.ts';
import type { WebhookSetup } from './setup.ts';

let s: WebhookSetup;
beforeAll(async () => {
  s = await createWebhookSetup();
});
afterAll(() => s.close());

/** fetch that, once killed, never settles again: the process is gone, nothing gets recorded. */
function killableFetch(): { fetch: FetchLike; kill(): void } {
  let killed = false;
  return {
    kill: () => {
      killed = true;
    },
    fetch: (url, init) =>
      new Promise<Response>((resolve, reject) => {
        fetch(url, init).then(
          (response) => (killed ? undefined : resolve(response)),
          (error: unknown) => (killed ? undefined : reject(error instanceof Error ? error : new Error(String(error)))),
        );
      }),
  };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('a dispatcher killed mid-batch', () => {
  it('loses nothing: after the lease, every event arrives with its original webhook-id', async () => {
    const { shop } = await s.newShop();
    const messageIds = [await s.emit(shop), await s.emit(shop, 'order.converted'), await s.emit(shop, 'campaign.activated')];
    const path = `/${shop.id}`;
    // The receiver answers the first delivery and hangs on the rest.
    s.receiver.respond = () => (s.receiver.requests.filter((r) => r.path === path).length === 1 ? { status: 200 } : 'hang');
    const start = s.clock.now().getTime();
    const doomed = killableFetch();
    // Three slots for the endpoint, so all three attempts are in flight when it dies.
    void s.dispatcher({ fetch: doomed.fetch, perEndpoint: 3 }).runOnce();
    await s.receiver.waitFor(3);
    await until(async () => (await s.rows(shop)).some((row) => row.status === 'delivered'));
    doomed.kill();

    const [answered] = s.receiver.requests.filter((r) => r.path === path);
    const firstId = answered?.headers['webhook-id'];
    expect(messageIds).toContain(firstId);
    expect((await s.rows(shop)).map((row) => row.status).sort()).toEqual(['delivered', 'pending', 'pending']);

    // While the lease holds, another instance sends nothing again.
    s.receiver.respond = () => ({ status: 200 });
    s.clock.set(start + DEFAULT_LEASE_MS - 1000);
    expect(await s.dispatcher().runOnce()).toMatchObject({ claimed: 0 });

    // The restarted dispatcher, after the lease: the two unrecorded events go out again, same ids.
    s.clock.set(start + DEFAULT_LEASE_MS + 1000);
    expect(await s.dispatcher().runOnce()).toMatchObject({ claimed: 2, delivered: 2 });
    const rows = await s.rows(shop);
    expect(rows.map((row) => row.status)).toEqual(['delivered', 'delivered', 'delivered']);
    const received = s.receiver.requests.filter((r) => r.path === path).map((r) => r.headers['webhook-id']);
    expect(received).toHaveLength(5);
    expect(new Set(received)).toEqual(new Set(messageIds));
    for (const id of messageIds) expect(received.filter((r) => r === id)).toHaveLength(id === firstId ? 1 : 2);
    // Every retried body is the original event, byte for byte.
    const bodies = new Map<string, Set<string>>();
    for (const r of s.receiver.requests.filter((q) => q.path === path)) {
      const id = String(r.headers['webhook-id']);
      bodies.set(id, (bodies.get(id) ?? new Set()).add(r.body));
    }
    for (const set of bodies.values()) expect(set.size).toBe(1);

    // The log tells the story: the abandoned attempt, then the delivered one.
    const log = await s.t.admin({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhook-deliveries` });
    const retried = (log.json() as { deliveries: Array<{ messageId: string; attempts: number; attemptLog: Array<{ statusCode: number | null; error: string | null }> }> }).deliveries.filter(
      (d) => d.messageId !== firstId,
    );
    for (const delivery of retried) {
      expect(delivery.attempts).toBe(2);
      expect(delivery.attemptLog).toEqual([
        expect.objectContaining({ statusCode: null, error: expect.stringMatching(/^No outcome recorded/) }),
        expect.objectContaining({ statusCode: 200, error: null }),
      ]);
    }
  });
});
