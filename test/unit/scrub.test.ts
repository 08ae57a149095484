import { describe, expect, it } from 'vitest';
import { createScrubber, REDACTED } from '../../src/logging/scrub.ts';

const key = `gcr_${'A'.repeat(16)}_${'b'.repeat(4)}${'c'.repeat(28)}`;
const hash = 'ab'.repeat(32);
const scrubber = createScrubber(['admin-token-0123456789', undefined, 'short']);

describe('the log scrubber', () => {
  it.each([
    ['an API key, kept to its loggable prefix', `key ${key} used`, `key gcr_${'A'.repeat(16)}_bbbb${REDACTED} used`],
    ['a webhook secret', 'secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', `secret whsec_${REDACTED}`],
    ['a bearer token', 'Authorization: Bearer abc.def', `Authorization: ${REDACTED}`],
    ['a configured secret verbatim', 'token=admin-token-0123456789!', `token=${REDACTED}!`],
    ['a key hash', `hash ${hash}`, `hash ${REDACTED}`],
    ['drizzle parameters', `Failed query: insert into "x" values ($1)\nparams: whsec_abc,${hash}\n  at y`, `Failed query: insert into "x" values ($1)\nparams: ${REDACTED}\n  at y`],
    ['a unique-violation detail', 'Key (key_hash)=(secret value) already exists.', `Key (key_hash)=(${REDACTED}) already exists.`],
    ['a raw header line', 'GET / HTTP/1.1\r\nX-Storefront-Token: sft_1\r\nHost: x', `GET / HTTP/1.1\r\nX-Storefront-Token: ${REDACTED}\r\nHost: x`],
    ['platform access tokens, kept to their prefix', `shpat_${'9f'.repeat(16)} shpca_${'0a'.repeat(16)} shppa_x1 shpua_y-2`, `shpat_${REDACTED} shpca_${REDACTED} shppa_${REDACTED} shpua_${REDACTED}`],
    ['a raw access-token header line', `GET / HTTP/1.1\r\nX-Shopify-Access-Token: ${'e'.repeat(32)}\r\nHost: x`, `GET / HTTP/1.1\r\nX-Shopify-Access-Token: ${REDACTED}\r\nHost: x`],
    ['a short configured value, which is left alone', 'short words', 'short words'],
  ])('masks %s', (_name, input, expected) => {
    expect(scrubber.text(input)).toBe(expected);
  });

  it('drops the parameters and raw packet of errors, and secret-named fields anywhere', () => {
    const error = Object.assign(new Error(`Failed query: q\nparams: ${key}`), {
      params: [key],
      rawPacket: Buffer.from(key),
      cause: Object.assign(new Error('violates'), { detail: `Key (key_hash)=(${hash}) already exists.` }),
    });
    const out = scrubber.value({
      err: error,
      headers: { authorization: 'x', Cookie: 'y', accept: '*/*', 'X-Shopify-Access-Token': 'legacy' },
      nested: [{ secret: 's', accessToken: 'legacy', access_token: 'legacy', sealedToken: 'v1.x' }],
    });
    expect(JSON.stringify(out)).not.toContain('cccc');
    expect(JSON.stringify(out)).not.toContain(hash);
    expect(out).toMatchObject({
      err: { type: 'Error', message: `Failed query: q\nparams: ${REDACTED}`, cause: { message: 'violates' } },
      headers: { authorization: REDACTED, Cookie: REDACTED, accept: '*/*', 'X-Shopify-Access-Token': REDACTED },
      nested: [{ secret: REDACTED, accessToken: REDACTED, access_token: REDACTED, sealedToken: REDACTED }],
    });
    expect(out).not.toHaveProperty('err.params');
    expect(out).not.toHaveProperty('err.rawPacket');
  });

  it('leaves class instances to their serializers and survives cycles', () => {
    const date = new Date(0);
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    expect(scrubber.value({ date, cyclic })).toMatchObject({ date, cyclic: { name: 'a', self: '[Circular or too deep]' } });
  });
});
