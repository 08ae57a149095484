/**
 * The discount's title in the buyer's language (options.discountTitleTranslations), through the
 * built function in QuickJS as the platform runs it: `localization.language.isoCode` picks the
 * exact locale (`PT_BR` → `pt-BR`), else its language (`PT_PT` → `pt`), else `discountTitle`.
 */
import { buildCheckoutConfig } from '@gcrs/engine/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFunction } from '../../scripts/build-function.ts';
import { loadFunctionInQuickJs } from '../../dev/checkout/quickjs-function.ts';
import type { QuickJsFunction } from '../../dev/checkout/quickjs-function.ts';
import { functionInput, giftLine, plainLine, shopPayload } from '../support/checkout-shop.ts';
import type { FunctionResult } from '../support/checkout-shop.ts';

let fn: QuickJsFunction;
beforeAll(async () => {
  fn = await loadFunctionInQuickJs((await buildFunction({ write: false })).code);
});
afterAll(() => fn.dispose());

// Rule 0 (free) is translated, rule 2 (5.00 off, another title) is not; rule 3 has rule 0's
// title with other translations, so the two keep apart.
const payload = shopPayload(4);
const withTranslations = (index: number, discountTitleTranslations: Record<string, string>) => {
  const target = payload.rules[index];
  if (target === undefined) throw new Error('fixture');
  target.options = { ...target.options, discountTitleTranslations } as typeof target.options;
};
withTranslations(0, { fr: 'Cadeau offert', 'pt-BR': 'Brinde grátis', pt: 'Oferta' });
withTranslations(3, { FR: 'Petit cadeau' });
const { config } = buildCheckoutConfig(payload);

const messages = (language: string | undefined) => {
  const input = functionInput(config, [plainLine(3, '90.00'), giftLine(1, 0), giftLine(2, 2), giftLine(3, 3)], { tags: ['vip'] });
  if (language !== undefined) input.localization = { ...input.localization, language: { isoCode: language } };
  const result = fn.run(input) as FunctionResult;
  return Object.fromEntries(result.operations.flatMap((op) => op.productDiscountsAdd.candidates.flatMap((c) => c.targets.map((t) => [t.cartLine.id.slice(-2), c.message]))));
};

describe('the discount title in the buyer\'s language', () => {
  it('writes translations only for the titles that have them, locales in lower case', () => {
    // Rule 1 has rule 0's title without translations: an entry of its own.
    expect(config.m).toEqual(['Free gift', 'Free gift', 'Gift: 5 off', 'Free gift']);
    expect(config.l).toEqual([{ fr: 'Cadeau offert', 'pt-br': 'Brinde grátis', pt: 'Oferta' }, 0, 0, { fr: 'Petit cadeau' }]);
  });

  it.each([
    ['FR', { g1: 'Cadeau offert', g2: 'Gift: 5 off', g3: 'Petit cadeau' }],
    ['PT_BR', { g1: 'Brinde grátis', g2: 'Gift: 5 off', g3: 'Free gift' }],
    ['PT_PT', { g1: 'Oferta', g2: 'Gift: 5 off', g3: 'Free gift' }],
    ['DE', { g1: 'Free gift', g2: 'Gift: 5 off', g3: 'Free gift' }],
    [undefined, { g1: 'Free gift', g2: 'Gift: 5 off', g3: 'Free gift' }],
  ])('%s', (language, expected) => {
    expect(messages(language)).toEqual(expected);
  });

  it('a configuration without `l` (written before translations) gives discountTitle', () => {
    const { l: _dropped, ...older } = config;
    const input = functionInput(older, [plainLine(3, '90.00'), giftLine(1, 0)], { tags: ['vip'] });
    input.localization = { country: { isoCode: 'FR' }, language: { isoCode: 'FR' } };
    const result = fn.run(input) as FunctionResult;
    expect(result.operations[0]?.productDiscountsAdd.candidates.map((c) => c.message)).toEqual(['Free gift']);
  });
});
