import { describe, expect, it } from 'vitest';
import { DEFAULT_PROXY, fillTemplate, formatMoney, progressToward, readScriptConfig } from '../src/index.ts';

describe('readScriptConfig (the data-* of the script tag)', () => {
  it('reads every attribute of the CONTRACT snippet', () => {
    expect(
      readScriptConfig(
        { proxy: '/apps/gifts/', currency: 'usd', market: 'us', country: 'us', customerId: '42', customerTags: 'vip, wholesale,,', loggedIn: 'true' },
        '?svc_debug=1&x=2',
      ),
    ).toEqual({ proxy: '/apps/gifts', currency: 'USD', market: 'us', country: 'US', customerId: '42', customerTags: ['vip', 'wholesale'], loggedIn: true, debugRequested: true });
  });

  it('defaults: the proxy path, no currency (the cart decides), anonymous, no debug', () => {
    expect(readScriptConfig({ customerId: '', customerTags: '', loggedIn: 'false' }, '')).toEqual({
      proxy: DEFAULT_PROXY,
      currency: undefined,
      market: undefined,
      country: undefined,
      customerId: undefined,
      customerTags: [],
      loggedIn: false,
      debugRequested: false,
    });
    expect(readScriptConfig({}, '?svc_debug=true').debugRequested).toBe(false);
  });

  it('reads what the app embed adds: the locale and the on-demand chunks\' URLs (blank: none)', () => {
    const embed = readScriptConfig({ locale: 'fr', widgetsSrc: '//cdn.example/extensions/x/assets/gifts-widgets.js?v=17' }, '');
    expect(embed).toMatchObject({ locale: 'fr', widgetsSrc: '//cdn.example/extensions/x/assets/gifts-widgets.js?v=17' });
    expect(readScriptConfig({ locale: ' ', widgetsSrc: '' }, '')).toMatchObject({ locale: undefined, widgetsSrc: undefined });
    const chunks = readScriptConfig({ progressSrc: '//cdn.example/a/gifts-progress.js?v=1', debugSrc: ' //cdn.example/a/gifts-debug.js?v=1 ' }, '');
    expect(chunks).toMatchObject({ progressSrc: '//cdn.example/a/gifts-progress.js?v=1', debugSrc: '//cdn.example/a/gifts-debug.js?v=1' });
    expect(readScriptConfig({ progressSrc: '', debugSrc: ' ' }, '')).toMatchObject({ progressSrc: undefined, debugSrc: undefined });
  });
});

describe('progress bar model', () => {
  const thresholds = [{ amountCents: 10_000 }, { amountCents: 5000 }];

  it('measures toward the next threshold not reached', () => {
    expect(progressToward(3000, thresholds)).toEqual({ next: { amountCents: 5000 }, remaining: 2000, percent: 60, complete: false });
    expect(progressToward(5000, thresholds)).toEqual({ next: { amountCents: 10_000 }, remaining: 5000, percent: 50, complete: false });
    expect(progressToward(12_000, thresholds)).toEqual({ next: undefined, remaining: 0, percent: 100, complete: true });
    expect(progressToward(0, [])).toMatchObject({ complete: false, remaining: 0 });
  });

  it('formats minor units with the ISO exponent and fills message templates', () => {
    expect(formatMoney(2000, 'USD', 'en-US')).toBe('$20.00');
    expect(formatMoney(2000, 'JPY', 'en-US')).toBe('¥2,000');
    expect(formatMoney(2000, 'U$', 'en-US')).toBe('20.00 U$'); // not a currency code: plain text, no throw
    expect(fillTemplate('Spend {{remaining}} more for {{ gift }} {{unknown}}', { remaining: '$20.00', gift: 'a tote' })).toBe('Spend $20.00 more for a tote {{unknown}}');
  });
});
