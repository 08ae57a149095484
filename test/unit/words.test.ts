/** The merchant admin's words (app/src/words.ts): a sentence for every reason code, money in major units. */
import { COMBINATOR_REASON, LIMIT_REASON, OUTCOME, SKIP_REASON, SUPPRESSED } from '@gcrs/engine';
import { describe, expect, it } from 'vitest';
import { warningSentences } from '../../app/src/health-warnings.ts';
import { REASON_SENTENCES, averageOrderSentence, countText, formatAmount, formatMinor, funnelSentence, idKey, reasonSentence, shareText, toMajorText, toMinorUnits } from '../../app/src/words.ts';

/** Every reason code the engine answers: leaf outcomes (single and matched/unmatched pairs), groups, skips, limits, stacking. */
function engineReasonCodes(): Set<string> {
  const codes = new Set<string>();
  for (const value of Object.values(OUTCOME) as unknown[]) {
    const outcomes = typeof value === 'object' && value !== null && 'reason' in value ? [value] : Object.values(value as object);
    for (const outcome of outcomes as Array<{ reason: string }>) codes.add(outcome.reason);
  }
  for (const table of [COMBINATOR_REASON, SKIP_REASON, LIMIT_REASON, SUPPRESSED]) for (const code of Object.values(table)) codes.add(code);
  return codes;
}

describe('reason sentences', () => {
  it('has a sentence for every reason code the engine can produce, and none for a code it does not', () => {
    const codes = engineReasonCodes();
    expect(codes.size).toBeGreaterThanOrEqual(60);
    expect([...codes].filter((code) => !(code in REASON_SENTENCES))).toEqual([]);
    expect(Object.keys(REASON_SENTENCES).filter((code) => !codes.has(code))).toEqual([]);
    for (const code of codes) expect(reasonSentence(code)).toMatch(/^[A-Z].*\.$/);
  });

  it('says a code it does not know as the code', () => {
    expect(reasonSentence('something_new')).toBe('something_new');
  });
});

describe('money in major units', () => {
  it('takes "50" as 5000 cents of USD, 500 yen as 500 and 1.5 dinars as 1500 fils', () => {
    expect(toMinorUnits('50', 'USD')).toBe(5000);
    expect(toMinorUnits('$50.5', 'USD')).toBe(5050);
    expect(toMinorUnits('1,250.99', 'usd')).toBe(125099);
    expect(toMinorUnits('500', 'JPY')).toBe(500);
    expect(toMinorUnits('1.5', 'KWD')).toBe(1500);
  });

  it('refuses what is not an amount in the currency', () => {
    for (const [text, currency] of [['', 'USD'], ['abc', 'USD'], ['1.234', 'USD'], ['5.5', 'JPY'], ['-3', 'USD'], ['1.2.3', 'EUR']] as const) {
      expect(toMinorUnits(text, currency), `${text} ${currency}`).toBeUndefined();
    }
  });

  it('shows minor units as the field text and as money', () => {
    expect(toMajorText(5000, 'USD')).toBe('50.00');
    expect(toMajorText(500, 'JPY')).toBe('500');
    expect(formatMinor(5000, 'USD', 'en-US')).toBe('$50.00');
    expect(formatMinor(1500, 'KWD', 'en-US')).toBe('KWD\u00a01.500');
    expect(formatMinor(5000, 'EUR', 'de-DE')).toBe('50,00\u00a0€');
  });

  it('keys a gid and its numeric id alike', () => {
    expect(idKey('gid://shopify/ProductVariant/42')).toBe(idKey('42'));
  });
});

describe('health warnings in words', () => {
  const names = new Map([['rul_a', 'Mug for everyone'], ['rul_b', 'Tote for VIPs']]);
  const ruleName = (id: string) => names.get(id);
  const outOfStock = (ruleId: string) =>
    ({ kind: 'gift_inventory', ruleId, variantId: '7', variantGid: 'gid://shopify/ProductVariant/7', displayName: 'Tote - Blue', productTitle: 'Tote', inventoryQuantity: 0, inventoryPolicy: 'DENY', level: 'out_of_stock' }) as const;

  it('says each warning once, with its rule by name and no id', () => {
    const sentences = warningSentences([outOfStock('rul_a'), outOfStock('rul_a'), outOfStock('rul_b')], ruleName);
    expect(sentences).toEqual(['Rule “Mug for everyone”: its gift Tote - Blue is out of stock.', 'Rule “Tote for VIPs”: its gift Tote - Blue is out of stock.']);
  });

  it('names unknown gifts and triggers by their numeric id, and a rule it cannot name as "a rule"', () => {
    const unknownGift = { kind: 'gift_status', ruleId: 'rul_x', variantId: '33', variantGid: 'gid://shopify/ProductVariant/33', displayName: null, productTitle: null, status: 'deleted', inCatalog: false } as const;
    const trigger = { kind: 'trigger_status', ruleId: 'rul_b', target: 'product', productId: '40', productGid: 'gid://shopify/Product/40', productTitle: 'Shirt', variantId: null, variantGid: null, status: 'draft', inCatalog: true } as const;
    const market = { kind: 'checkout_excluded', ruleId: 'rul_a', reason: 'market_condition' } as const;
    expect(warningSentences([unknownGift, trigger, market], ruleName)).toEqual([
      'A rule: its gift, variant 33, is not in the catalog.',
      'Rule “Tote for VIPs”: Shirt, which its conditions name, is a draft.',
      'Rule “Mug for everyone” names a market, which the checkout cannot check: its gift would be charged at checkout. Name countries instead.',
    ]);
  });

  it('says why a cart of many lines would get no gift discount when the rules name many collections', () => {
    const input = { kind: 'checkout_input_size', bytes: 141150, limit: 128000, lines: 200, collections: 2 } as const;
    expect(warningSentences([input], ruleName)).toEqual([
      'The live rules ask about 2 collections on every cart line: a cart of 200 lines would be too large for the checkout, which would then give no gift discount. Name fewer collections.',
    ]);
  });
});

describe('analytics in words', () => {
  it('says amounts of the API in the currency with its ISO digits, counts with their noun and shares as whole percentages', () => {
    expect(formatAmount(40.5, 'USD', 'en-US')).toBe('$40.50');
    expect(formatAmount(1234, 'JPY', 'en-US')).toBe('¥1,234');
    expect(formatAmount(1.234, 'KWD', 'en-US')).toMatch(/^KWD\s1\.234$/);
    expect([countText(1, 'order'), countText(3, 'order'), countText(1200, 'time')]).toEqual(['1 order', '3 orders', '1,200 times']);
    expect([shareText(2, 3), shareText(3, 0), shareText(0, 4)]).toEqual(['67 %', '–', '0 %']);
  });

  it('compares the average orders with and without a gift, and says when there is nothing to compare', () => {
    expect(averageOrderSentence(25.25, 25, 'USD')).toBe('Orders with a gift average $25.25: $0.25 more than orders without one ($25.00).');
    expect(averageOrderSentence(20, 30.1, 'USD')).toBe('Orders with a gift average $20.00: $10.10 less than orders without one ($30.10).');
    expect(averageOrderSentence(30, 30, 'USD')).toBe('Orders with a gift average $30.00, the same as orders without one.');
    expect(averageOrderSentence(null, 12, 'USD')).toBe('No order in this range carried a gift, so there is nothing to compare yet.');
    expect(averageOrderSentence(12, null, 'USD')).toBe('Every order in this range carried a gift; they average $12.00.');
    expect(averageOrderSentence(null, null, 'USD')).toBe('No order was paid in this range.');
  });

  it('says the funnel step by step, starting at "added" when no choice was shown', () => {
    expect(funnelSentence({ shown: 4, added: 3, ordered: 2 })).toBe(
      'Gifts were shown 4 times; a gift was added to a cart 3 times (75 % of showings); 2 orders carried the gift (67 % of adds).',
    );
    expect(funnelSentence({ shown: 0, added: 1, ordered: 1 })).toBe('The gift was added to a cart 1 time; 1 order carried the gift (100 % of adds).');
    expect(funnelSentence({ shown: 0, added: 0, ordered: 2 })).toBe('2 orders carried the gift.');
    expect(funnelSentence({ shown: 0, added: 0, ordered: 0 })).toBe('No gift was shown, added or ordered in this range.');
  });
});
