/**
 * The precompressed representations of a cached body (rules, the theme script, the merchant
 * admin's assets): the off-thread variant gives the same codings and tags as the synchronous
 * one, and each decodes to the body; a body that would not shrink keeps its identity bytes.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeRepresentations, encodeRepresentationsOffThread } from '../../src/rules/rules-cache.ts';

describe('encodeRepresentations and encodeRepresentationsOffThread', () => {
  const body = Buffer.from(JSON.stringify({ rules: Array.from({ length: 500 }, (_, i) => ({ id: `rul_${i}`, name: 'Spend 50, get a mug' })) }));

  it('give the same representations, each decoding to the body, with one strong tag per coding', async () => {
    const sync = encodeRepresentations('"abc"', body);
    const offThread = await encodeRepresentationsOffThread('"abc"', body);
    expect(offThread.identity).toEqual(sync.identity);
    expect(offThread.gzip.etag).toBe('"abc-gzip"');
    expect(offThread.br.etag).toBe('"abc-br"');
    expect(gunzipSync(offThread.gzip.body).equals(body)).toBe(true);
    expect(brotliDecompressSync(offThread.br.body).equals(body)).toBe(true);
    expect(offThread.br.body.equals(sync.br.body)).toBe(true);
  });

  it('keep the identity bytes for a body that compression would not shrink', async () => {
    const tiny = Buffer.from('{}');
    const offThread = await encodeRepresentationsOffThread('"t"', tiny);
    expect(offThread.gzip).toBe(offThread.identity);
    expect(offThread.br.etag).toBe('"t"');
  });
});
