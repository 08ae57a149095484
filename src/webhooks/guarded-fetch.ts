/**
 * The fetch webhook deliveries use: every connection goes only to an address the destination
 * policy allows (destination-policy.ts). The name is resolved once, every address it resolves
 * to is judged, and the socket is opened to the judged address, so a name that answers a public
 * address to a check and a private one to the connection (DNS rebinding) cannot slip between
 * the two: there is no second lookup. TLS still verifies the certificate of the name (SNI is
 * the name, not the address).
 *
 * Redirects are never followed by deliverWebhook (`redirect: 'manual'`), so a receiver cannot
 * send the request on to a refused address either.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import { checkHost, isAllowedName, normalizeHost, refusedAddress } from './destination-policy.ts';
import type { DestinationAllowList, DestinationVerdict } from './destination-policy.ts';

/** Every address a name resolves to, in the resolver's order. */
export type ResolveAll = (hostname: string) => Promise<string[]>;

const resolveWithSystem: ResolveAll = async (hostname) => (await lookup(hostname, { all: true, order: 'verbatim' })).map((a) => a.address);

/** A connection the policy refused; no byte was sent to the destination. */
export class DestinationRefusedError extends Error {
  override name = 'DestinationRefusedError';
  readonly code = 'ERR_WEBHOOK_DESTINATION_REFUSED';
}

/**
 * Resolves `hostname` (once) and judges it and every address it resolves to; the addresses to
 * connect to, in the resolver's order, or why not. An IP literal is judged as it is, without a
 * lookup.
 *
 * @example
 *   await resolveDestination('localhost', EMPTY_ALLOW_LIST); // { allowed: false, reason: 'localhost is a name of one label…' }
 */
export async function resolveDestination(
  hostname: string,
  allowList: DestinationAllowList,
  resolve: ResolveAll = resolveWithSystem,
): Promise<{ allowed: true; addresses: [string, ...string[]] } | Extract<DestinationVerdict, { allowed: false }>> {
  const host = normalizeHost(hostname);
  const byName = checkHost(host, allowList);
  if (!byName.allowed) return byName;
  if (ipaddr.isValid(host)) return { allowed: true, addresses: [host] };
  const [first, ...rest] = await resolve(host);
  if (first === undefined) throw Object.assign(new Error(`${host} resolves to no address`), { code: 'ENOTFOUND' });
  // A name the operator allowed is trusted with whatever it resolves to.
  if (!isAllowedName(host, allowList)) {
    for (const address of [first, ...rest]) {
      const refused = refusedAddress(address, allowList);
      if (refused) return { allowed: false, reason: `${host} resolves to ${refused.address}, ${refused.kind} address, which webhooks may not reach` };
    }
  }
  return { allowed: true, addresses: [first, ...rest] };
}

type Connector = buildConnector.connector;

/**
 * The connector of the guarded agent: resolve and judge, then connect `connect` (undici's own
 * connector by default) to the judged addresses in turn until one answers (as the system's
 * connect would try a name's addresses), keeping the name for TLS.
 */
export function createGuardedConnector(options: {
  allowList: DestinationAllowList;
  resolve?: ResolveAll;
  connect?: Connector;
}): Connector {
  const connect = options.connect ?? buildConnector({});
  return (target, callback) => {
    // `host` (name:port) stays: undici takes the TLS server name from it, and it is not an address.
    const tryEach = (address: string, rest: readonly string[]): void => {
      const done: buildConnector.Callback = (...result) => {
        const [next, ...later] = rest;
        if (result[0] !== null && next !== undefined) return tryEach(next, later);
        return callback(...result);
      };
      // net.connect can throw at once (a bad option); inside this promise chain that would be an
      // unhandled rejection, which ends the process.
      try {
        connect({ ...target, hostname: address }, done);
      } catch (error) {
        done(asError(error), null);
      }
    };
    resolveDestination(target.hostname, options.allowList, options.resolve).then(
      (verdict) => (verdict.allowed ? tryEach(verdict.addresses[0], verdict.addresses.slice(1)) : callback(new DestinationRefusedError(verdict.reason), null)),
      (error: unknown) => callback(asError(error), null),
    );
  };
}

/** What a webhook attempt sends with: the global fetch's shape, so tests may pass their own. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * A fetch whose connections obey the destination policy, with an agent of its own; `close()`
 * ends its kept-alive connections.
 *
 * @example
 *   const guarded = createGuardedFetch({ allowList: config.webhookAllowList });
 *   await deliverWebhook(guarded.fetch, delivery, { attemptAt: new Date() });
 */
export function createGuardedFetch(options: { allowList: DestinationAllowList; resolve?: ResolveAll; connect?: Connector }): {
  fetch: FetchLike;
  close(): Promise<void>;
} {
  const agent = new Agent({ connect: createGuardedConnector(options) });
  return {
    fetch: (url, init) => fetch(url, { ...init, dispatcher: agent } as RequestInit),
    close: () => agent.close(),
  };
}

/** The refusal in `error`'s causes, if a refused connection is why a fetch failed. */
export function refusalOf(error: unknown): DestinationRefusedError | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof DestinationRefusedError) return e;
  }
  return undefined;
}
