/**
 * The admin's campaign templates (app/src/pages/campaign-templates.ts) are valid by construction:
 * each parses with the server's campaign import schema (the engine's condition, gift and option
 * schemas inside) once its gift slots are chosen, and the gift slots are the only blanks it leaves.
 */
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_TEMPLATES, templateOf } from '../../app/src/pages/campaign-templates.ts';
import { importCampaignSchema } from '../../src/campaigns/schemas.ts';

const GIFT = 'gid://shopify/ProductVariant/4242';

describe('campaign templates', () => {
  it('has the five the issue names, each with a unique key', () => {
    expect(CAMPAIGN_TEMPLATES.map((template) => template.title)).toEqual(['Spend X, get Y', 'Buy X, get Y', 'Tiered gifts', 'VIP choice', 'Welcome gift, once per customer']);
    expect(new Set(CAMPAIGN_TEMPLATES.map((template) => template.key)).size).toBe(CAMPAIGN_TEMPLATES.length);
    expect(templateOf('tiered')?.title).toBe('Tiered gifts');
    expect(templateOf('nothing')).toBeUndefined();
  });

  for (const template of CAMPAIGN_TEMPLATES) {
    for (const currency of ['USD', 'JPY', 'KWD']) {
      it(`${template.title} (${currency}) parses once its gifts are chosen, and only its gifts are blank`, () => {
        const body = template.build(currency);
        const blank = importCampaignSchema.safeParse(body);
        expect(blank.success).toBe(false);
        const paths = (blank.error?.issues ?? []).map((issue) => issue.path.join('.'));
        expect(paths.length).toBeGreaterThan(0);
        for (const path of paths) expect(path).toMatch(/^rules\.\d+\.giftConfig\.gifts\.\d+\.variantId$/);

        const chosen = { ...body, rules: body.rules.map((rule) => ({ ...rule, giftConfig: { ...rule.giftConfig, gifts: rule.giftConfig.gifts.map((gift) => ({ ...gift, variantId: GIFT })) } })) };
        const parsed = importCampaignSchema.safeParse(chosen);
        expect(parsed.error?.issues ?? []).toEqual([]);
        // Nothing is live before the merchant says so.
        expect(parsed.data).toMatchObject({ enabled: false, isDraft: true });
      });
    }
  }

  it('puts amounts in the shop currency: 50 is 5000 cents, 50 yen, 50000 fils', () => {
    const threshold = (currency: string) => (templateOf('spend-get')?.build(currency).rules[0]?.conditionTree as { children: Array<{ value: number }> }).children[0]?.value;
    expect([threshold('USD'), threshold('JPY'), threshold('KWD')]).toEqual([5000, 50, 50000]);
  });

  it('tiers: the higher tier goes first and is exclusive, so a big cart gets one gift', () => {
    const rules = templateOf('tiered')?.build('USD').rules ?? [];
    expect(rules.map((rule) => [rule.options.priority, rule.options.exclusive ?? false])).toEqual([
      [2, true],
      [1, false],
    ]);
  });
});
