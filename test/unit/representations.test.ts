/**
 * The representations of a body (rules, the theme script, the merchant admin's assets):
 * compressed off the event loop, each decoding to the body with its own strong tag; a body
 * too small to be worth compressing keeps its identity bytes and tag in every coding.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allEtags, codingEtag, createCompressor, encodeRepresentationsOffThread, MIN_COMPRESSED_BYTES, ON_DEMAND_LEVELS } from '../../src/rules/representations.ts';

describe('encodeRepresentationsOffThread', () => {
  const body = Buffer.from(JSON.stringify({ rules: Array.from({ length: 500 }, (_, i) => ({ id: `rul_${i}`, name: 'Spend 50, get a mug' })) }));

  it('gives every coding, each decoding to the body, with one strong tag per coding', async () => {
    const offThread = await encodeRepresentationsOffThread('"abc"', body);
    expect(offThread.identity).toEqual({ coding: 'identity', etag: '"abc"', body });
    expect(offThread.gzip.etag).toBe('"abc-gzip"');
    expect(offThread.br.etag).toBe('"abc-br"');
    expect(gunzipSync(offThread.gzip.body).equals(body)).toBe(true);
    expect(brotliDecompressSync(offThread.br.body).equals(body)).toBe(true);
  });

  it('keeps the identity bytes and tag for a body below the compression threshold', async () => {
    const tiny = Buffer.from('{}');
    const offThread = await encodeRepresentationsOffThread('"t"', tiny);
    expect(offThread.gzip).toBe(offThread.identity);
    expect(offThread.br.etag).toBe('"t"');
    expect(allEtags('"t"', tiny.length)).toEqual(['"t"']);
  });
});

describe('codingEtag and the on-demand compressor', () => {
  it('name each coding by size alone, so a 304 needs no compression', () => {
    expect(codingEtag('"a"', 'gzip', MIN_COMPRESSED_BYTES)).toBe('"a-gzip"');
    expect(codingEtag('"a"', 'br', MIN_COMPRESSED_BYTES - 1)).toBe('"a"');
    expect(codingEtag('"a"', 'identity', 10_000)).toBe('"a"');
    expect(allEtags('"a"', 10_000)).toEqual(['"a"', '"a-gzip"', '"a-br"']);
  });

  it('compresses into bytes that decode to the body', async () => {
    const body = Buffer.from('{"rules":[' + '{"name":"Spend 50, get a mug"},'.repeat(200) + '{}]}');
    const compress = createCompressor(ON_DEMAND_LEVELS);
    expect(brotliDecompressSync(await compress('br', body)).equals(body)).toBe(true);
    expect(gunzipSync(await compress('gzip', body)).equals(body)).toBe(true);
  });
});
