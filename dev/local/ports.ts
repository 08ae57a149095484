/**
 * Helpers of the dev commands that start the service as a child (`npm run storefront:dev`,
 * `npm run dev:local`): a free loopback port, and waiting for the service's `/healthz`.
 */
import { createServer } from 'node:net';

/** `wanted` when it is free on 127.0.0.1, else any free port (0 asks for any). */
export async function freePort(wanted: number): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((resolve) => {
    server.once('error', () => server.listen(0, '127.0.0.1'));
    server.once('listening', () => {
      const address = server.address();
      resolve(address !== null && typeof address === 'object' ? address.port : wanted);
    });
    server.listen(wanted, '127.0.0.1');
  });
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once `{base}/healthz` answers 2xx; throws when the child exited or the deadline passed. */
export async function waitHealthy(base: string, exited: () => boolean, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (exited()) throw new Error('the service exited during start (its output is above)');
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the service did not answer ${base}/healthz within ${deadlineMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
