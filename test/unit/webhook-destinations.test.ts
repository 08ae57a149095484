/** The destination policy of webhooks (issue 20 item 2): pure, table-driven; and its setting. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { checkHost, EMPTY_ALLOW_LIST, parseAllowList } from '../../src/webhooks/destination-policy.ts';
import type { DestinationAllowList } from '../../src/webhooks/destination-policy.ts';

const hostOf = (url: string) => new URL(url).hostname;

function allowList(text: string): DestinationAllowList {
  const parsed = parseAllowList(text);
  if (!parsed.ok) throw new Error(`unreadable: ${parsed.bad.join(', ')}`);
  return parsed.allowList;
}

describe('checkHost', () => {
  it.each([
    ['http://127.0.0.1/', 'a loopback'],
    ['http://2130706433/', 'a loopback'],
    ['http://0x7f000001/', 'a loopback'],
    ['http://[::ffff:127.0.0.1]/', 'a loopback'],
    ['http://[::1]/', 'a loopback'],
    ['http://0.0.0.0/', 'an unspecified'],
    ['http://169.254.169.254/', 'a link-local'],
    ['http://[fe80::1]/', 'a link-local'],
    ['http://10.0.0.1/', 'a private'],
    ['http://[fd00::1]/', 'a unique-local'],
    ['http://100.64.0.1/', 'a carrier-grade NAT'],
    ['http://224.0.0.1/', 'a multicast'],
    ['http://255.255.255.255/', 'a broadcast'],
    ['http://240.0.0.1/', 'a reserved (reserved)'],
    ['http://[2001:db8::1]/', 'a reserved (reserved)'],
    ['http://[2002:7f00:1::]/', 'a reserved (6to4)'],
    ['http://[::7f00:1]/', 'an IPv4-compatible'],
  ])('refuses %s as %s', (url, kind) => {
    const verdict = checkHost(hostOf(url), EMPTY_ALLOW_LIST);
    expect(verdict).toEqual({ allowed: false, reason: expect.stringContaining(` is ${kind} address`) });
  });

  it.each(['localhost', 'LOCALHOST.', 'a.b.localhost', 'printer.local', 'metadata.google.internal', 'nas.home.arpa', 'intranet'])('refuses the local name %s', (host) => {
    expect(checkHost(host, EMPTY_ALLOW_LIST).allowed).toBe(false);
  });

  it.each(['hooks.example.com', '93.184.216.34', '[2606:4700::1111]', 'internal.example.com', 'local.example.org'])('takes %s', (host) => {
    expect(checkHost(host, EMPTY_ALLOW_LIST)).toEqual({ allowed: true });
  });

  it('takes what the allow-list names, and only that', () => {
    const list = allowList('127.0.0.0/8, ::1, receiver.lan, Metadata.Google.Internal.');
    for (const host of ['127.0.0.1', '127.9.9.9', '[::1]', '[::ffff:127.0.0.1]', 'receiver.lan', 'metadata.google.internal']) expect(checkHost(host, list).allowed, host).toBe(true);
    for (const host of ['10.0.0.1', '[::2]', 'other.localhost', 'localhost', 'printer.local']) expect(checkHost(host, list).allowed, host).toBe(false);
  });
});

describe('WEBHOOK_ALLOWED_HOSTS', () => {
  it('is empty when unset', () => {
    expect(loadConfig({}).webhookAllowList).toEqual(EMPTY_ALLOW_LIST);
  });

  it('reads names, addresses and CIDRs', () => {
    const list = loadConfig({ WEBHOOK_ALLOWED_HOSTS: ' 127.0.0.1 , 10.0.0.0/8,fd00::/8, receiver.lan,' }).webhookAllowList;
    expect([...list.names]).toEqual(['receiver.lan']);
    expect(list.cidrs.map((c) => c.text)).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
  });

  it.each(['10.0.0.0/33', 'http://receiver.lan', '127.1', 'bad host', '::1/200'])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: value })).toThrow(/WEBHOOK_ALLOWED_HOSTS: must list host names, IP addresses or CIDRs/);
  });
});
