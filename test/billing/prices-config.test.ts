/** PLATFORM_BILLING_PLANS and PLATFORM_BILLING_TEST, parsed once at start (docs/billing.md). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('billing settings', () => {
  it('defaults: nothing for sale, no test charges', () => {
    expect(loadConfig({})).toMatchObject({ billingPrices: {}, billingTest: false });
  });

  it('reads a price per paid plan with the interval\'s default, and test mode', () => {
    const config = loadConfig({
      PLATFORM_BILLING_PLANS: '{"growth":{"amount":19,"currencyCode":"USD","trialDays":7},"scale":{"amount":"490.50","currencyCode":"EUR","interval":"ANNUAL"}}',
      PLATFORM_BILLING_TEST: 'true',
    });
    expect(config.billingPrices).toEqual({
      growth: { amount: '19', currencyCode: 'USD', interval: 'EVERY_30_DAYS', trialDays: 7 },
      scale: { amount: '490.50', currencyCode: 'EUR', interval: 'ANNUAL' },
    });
    expect(config.billingTest).toBe(true);
    expect(loadConfig({ PLATFORM_BILLING_TEST: '0' }).billingTest).toBe(false);
  });

  it.each([
    ['not JSON', '{growth', /PLATFORM_BILLING_PLANS: must be JSON/],
    ['a price for Free', '{"free":{"amount":"1.00","currencyCode":"USD"}}', /PLATFORM_BILLING_PLANS: Unrecognized key: "free"/],
    ['an amount of zero', '{"pro":{"amount":"0","currencyCode":"USD"}}', /PLATFORM_BILLING_PLANS\.pro\.amount: must be above zero/],
    ['three decimals', '{"pro":{"amount":"1.005","currencyCode":"USD"}}', /PLATFORM_BILLING_PLANS\.pro\.amount/],
    ['a lower-case currency', '{"pro":{"amount":"1","currencyCode":"usd"}}', /PLATFORM_BILLING_PLANS\.pro\.currencyCode/],
    ['another interval', '{"pro":{"amount":"1","currencyCode":"USD","interval":"MONTHLY"}}', /PLATFORM_BILLING_PLANS\.pro\.interval/],
    ['an unknown field', '{"pro":{"amount":"1","currencyCode":"USD","cap":5}}', /PLATFORM_BILLING_PLANS\.pro/],
  ])('refuses %s, naming the variable', (_name, value, message) => {
    expect(() => loadConfig({ PLATFORM_BILLING_PLANS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PLATFORM_BILLING_PLANS: value })).toThrow(message);
  });

  it('refuses a test flag that is not a boolean', () => {
    expect(() => loadConfig({ PLATFORM_BILLING_TEST: 'yes' })).toThrow(/PLATFORM_BILLING_TEST: must be true or false/);
  });
});
