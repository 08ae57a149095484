/**
 * The load generator of `npm run bench:repairs`, in its own process: sends the platform's
 * `orders/paid` webhooks (signed as the platform signs them) to the service at a fixed rate,
 * open loop (the next order leaves on schedule whatever the last answer), and reports when each
 * left and how long the service took to answer it.
 */
import { randomUUID } from 'node:crypto';
import { signPlatformBody } from '../src/orders/platform-signature.ts';

type Run = { type: 'run'; url: string; secret: string; domain: string; orderIds: string[]; perMinute: number };
export type Sent = { id: string; sentAt: number; status: number; answerMs: number };

/** An express-checkout order of one line over the rule's threshold, with no gift line. */
function orderBody(id: string): string {
  const payload = {
    id: 0,
    currency: 'USD',
    total_price: '120.00',
    processed_at: new Date().toISOString(),
    customer: { id: 900_000 + Number(id.slice(-6)) },
    shipping_address: { country_code: 'US' },
    line_items: [{ id: 1, variant_id: 4001, product_id: 401, quantity: 1, price: '120.00', properties: [] }],
  };
  return JSON.stringify(payload).replace('"id":0', `"id":${id}`);
}

async function send(run: Run, id: string): Promise<Sent> {
  const body = orderBody(id);
  const sentAt = Date.now();
  const started = performance.now();
  const res = await fetch(`${run.url}/webhooks/platform`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': signPlatformBody(body, run.secret),
      'x-shopify-shop-domain': run.domain,
      'x-shopify-topic': 'orders/paid',
      'x-shopify-webhook-id': randomUUID(),
    },
    body,
  });
  await res.arrayBuffer();
  return { id, sentAt, status: res.status, answerMs: performance.now() - started };
}

process.on('message', (message: Run | { type: 'stop' }) => {
  if (message.type === 'stop') process.exit(0);
  const run = message;
  const gap = 60_000 / run.perMinute;
  const start = performance.now();
  const sending = run.orderIds.map(
    (id, index) =>
      new Promise<Sent>((resolve, reject) => {
        setTimeout(() => send(run, id).then(resolve, reject), Math.max(0, start + index * gap - performance.now()));
      }),
  );
  void Promise.all(sending).then((sent) => process.send?.({ type: 'done', sent }));
});
process.send?.({ type: 'ready' });
