/**
 * Where outbound webhooks may go (issue 20 item 2): a merchant's endpoint must not become a
 * way into the operator's network. Loopback, unspecified, link-local, private, unique-local,
 * carrier-grade NAT, multicast, broadcast and reserved addresses are refused, whatever their
 * text (`2130706433`, `0x7f000001`, `127.1`, `[::ffff:127.0.0.1]` are all 127.0.0.1 once the
 * URL parser has read them), and so are names that only ever mean a local host (`localhost`,
 * `*.internal`, one-label names). Address ranges are ipaddr.js's (IANA's special-purpose
 * registries), not a list of our own.
 *
 * The operator's allow-list (WEBHOOK_ALLOWED_HOSTS) lets chosen host names and CIDRs through,
 * for receivers on purpose on the operator's own network (and the tests' loopback receivers).
 *
 * Pure: used at save (the URL's host) and at connect time (every address a name resolves to).
 */
import ipaddr from 'ipaddr.js';

export type AllowedCidr = { text: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

/** The parsed WEBHOOK_ALLOWED_HOSTS: exact host names, and CIDRs (a bare address is its own /32 or /128). */
export type DestinationAllowList = { names: ReadonlySet<string>; cidrs: readonly AllowedCidr[] };

export const EMPTY_ALLOW_LIST: DestinationAllowList = { names: new Set(), cidrs: [] };

/** Either the host may be reached, or why not (a sentence for the merchant and the delivery log). */
export type DestinationVerdict = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: DestinationVerdict = { allowed: true };

// RFC 6761 (localhost), RFC 6762 (.local, mDNS), RFC 8375 (home.arpa), ICANN's 2024 reservation
// of .internal for private use (metadata.google.internal): names that never mean a public host.
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];

// ::/96, the deprecated IPv4-compatible addresses (RFC 4291 §2.5.5.1): ipaddr.js calls them
// unicast, but ::7f00:1 is 127.0.0.1 to any stack that still maps them.
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A host as compared: lower case, brackets of an IPv6 literal and one trailing dot removed. */
export function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

/**
 * Parses WEBHOOK_ALLOWED_HOSTS (comma separated host names, addresses and CIDRs), or returns the
 * entries it cannot read.
 *
 * @example
 *   parseAllowList('127.0.0.1/32, ::1, receiver.lan'); // { ok: true, allowList: { names: {receiver.lan}, cidrs: [...] } }
 */
export function parseAllowList(text: string): { ok: true; allowList: DestinationAllowList } | { ok: false; bad: string[] } {
  const names = new Set<string>();
  const cidrs: AllowedCidr[] = [];
  const bad: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const host = normalizeHost(entry);
    if (entry.includes('/')) {
      if (ipaddr.isValidCIDR(entry)) cidrs.push({ text: entry, range: ipaddr.parseCIDR(entry) });
      else bad.push(entry);
    } else if (ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host)) {
      const address = ipaddr.parse(host);
      cidrs.push({ text: entry, range: [address, address.kind() === 'ipv4' ? 32 : 128] });
    } else if (HOST_NAME.test(host) && !/^[0-9.]+$/.test(host)) {
      names.add(host);
    } else {
      bad.push(entry);
    }
  }
  return bad.length > 0 ? { ok: false, bad } : { ok: true, allowList: { names, cidrs } };
}

function inAllowList(address: ipaddr.IPv4 | ipaddr.IPv6, allowList: DestinationAllowList): boolean {
  return allowList.cidrs.some(({ range }) => range[0].kind() === address.kind() && address.match(range));
}

/**
 * What a refused IP address is (any text ipaddr.js reads; IPv4-mapped IPv6 is judged as its
 * IPv4), or undefined when it may be connected to. `kind` comes with its article.
 *
 * @example
 *   refusedAddress('::ffff:7f00:1', EMPTY_ALLOW_LIST); // { address: '127.0.0.1', kind: 'a loopback' }
 */
export function refusedAddress(text: string, allowList: DestinationAllowList): { address: string; kind: string } | undefined {
  const address = ipaddr.process(normalizeHost(text));
  if (inAllowList(address, allowList)) return undefined;
  const range = address.range();
  if (range !== 'unicast') return { address: address.toString(), kind: describeRange(range) };
  return address.kind() === 'ipv6' && address.match(IPV4_COMPATIBLE) ? { address: address.toString(), kind: describeRange('ipv4Compatible') } : undefined;
}

/**
 * Whether an IP address may be connected to.
 *
 * @example
 *   checkAddress('169.254.169.254', EMPTY_ALLOW_LIST); // { allowed: false, reason: '169.254.169.254 is a link-local address, …' }
 */
export function checkAddress(text: string, allowList: DestinationAllowList): DestinationVerdict {
  const refused = refusedAddress(text, allowList);
  return refused === undefined ? ALLOWED : { allowed: false, reason: `${refused.address} is ${refused.kind} address, which webhooks may not reach` };
}

/** ipaddr.js's range names as a sentence says them, with their article. */
function describeRange(range: string): string {
  const words: Record<string, string> = {
    unspecified: 'an unspecified',
    loopback: 'a loopback',
    linkLocal: 'a link-local',
    private: 'a private',
    uniqueLocal: 'a unique-local',
    carrierGradeNat: 'a carrier-grade NAT',
    multicast: 'a multicast',
    broadcast: 'a broadcast',
    ipv4Compatible: 'an IPv4-compatible',
  };
  return words[range] ?? `a reserved (${range})`;
}

/**
 * Whether a URL's host may be delivered to, judged from its text alone: an IP literal by its
 * address, a name by whether it can only be local. A public-looking name is judged again at
 * connect time, on every address it resolves to.
 *
 * @example
 *   checkHost(new URL('http://2130706433/').hostname, EMPTY_ALLOW_LIST).allowed; // false (127.0.0.1)
 */
export function checkHost(hostname: string, allowList: DestinationAllowList): DestinationVerdict {
  const host = normalizeHost(hostname);
  // Every form an address may be written in (ipaddr.js reads decimal, hex, octal and short IPv4 as WHATWG URL does).
  if (ipaddr.isValid(host)) return checkAddress(host, allowList);
  if (allowList.names.has(host)) return ALLOWED;
  if (!host.includes('.')) {
    return { allowed: false, reason: `${host} is a name of one label, which only a local resolver answers; webhooks may not reach it` };
  }
  const suffix = LOCAL_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix !== undefined) return { allowed: false, reason: `${host} is a local name (.${suffix}), which webhooks may not reach` };
  return ALLOWED;
}

/** Whether `host` is one of the allow-list's names (then its addresses are not judged). */
export const isAllowedName = (hostname: string, allowList: DestinationAllowList) => allowList.names.has(normalizeHost(hostname));
