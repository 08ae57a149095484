import { describe, expect, it } from 'vitest';
import { BAD_PORTS, webhookUrlSchema } from '../../src/webhooks/url.ts';

describe('webhook endpoint URLs', () => {
  it('refuses exactly the ports Node’s fetch refuses', async () => {
    // Every listed port is refused by fetch before any connection ("bad port").
    for (const port of BAD_PORTS) {
      const error = await fetch(`http://127.0.0.1:${port}/`).then(() => undefined, (e: unknown) => e as Error & { cause?: Error });
      expect(String(error?.cause?.message ?? error?.message), `port ${port}`).toMatch(/bad port/);
      expect(webhookUrlSchema.safeParse(`https://example.com:${port}/`).success, `port ${port}`).toBe(false);
    }
  });

  it.each(['https://example.com/hook', 'http://127.0.0.1:8080/x', 'https://example.com:443/', 'https://example.com:8443/a?b=c'])(
    'takes %s',
    (url) => {
      expect(webhookUrlSchema.parse(url)).toBe(url);
    },
  );

  it('refuses credentials even when the port is fine, naming the reason', () => {
    const result = webhookUrlSchema.safeParse('https://:secret@example.com/');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/credentials/);
  });
});
