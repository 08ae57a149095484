import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook, webhookHeaders } from '../../src/webhooks/sign.ts';

describe('Standard Webhooks signer', () => {
  it('matches the pinned test vector of the Standard Webhooks libraries', () => {
    expect(
      signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes whsec_ secrets of 24 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('produces headers the official standardwebhooks package verifies', () => {
    for (let i = 0; i < 20; i += 1) {
      const secret = newWebhookSecret();
      const body = JSON.stringify({ type: 'campaign.activated', timestamp: new Date().toISOString(), data: { shopId: 'shp_1', n: i, s: 'ünïcødé' } });
      const headers = webhookHeaders(secret, `msg_${i}`, new Date(), body);
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
  });

  it('is rejected by the official verifier when the body, id or secret differ', () => {
    const secret = newWebhookSecret();
    const body = '{"type":"gift.added"}';
    const headers = webhookHeaders(secret, 'msg_1', new Date(), body);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('sends the attempt time in Unix seconds', () => {
    const headers = webhookHeaders(newWebhookSecret(), 'msg_1', new Date('2026-01-01T00:00:01.999Z'), '{}');
    expect(headers['webhook-timestamp']).toBe('1767225601');
  });
});
