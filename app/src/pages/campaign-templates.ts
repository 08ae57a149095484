/**
 * Campaign templates (issue 23 item 7; docs/merchant-admin.md "Templates"): what a merchant coming
 * from the peers' apps starts from. Choosing one opens the editor filled (`#/campaigns/new/<key>`);
 * nothing is saved until the merchant saves. Each is a new campaign body of the API's own type,
 * its condition trees typed by the engine: test/unit/campaign-templates.test.ts parses every one
 * with the server's import schema once its gift slots are chosen (the one blank a template leaves,
 * as only the merchant knows the gift). Amounts are in the shop's currency.
 */
import type { ConditionNode } from '@gcrs/engine';
import { toMinorUnits } from '../words.ts';
import type { CampaignBody, RuleBody } from './campaign-body.ts';

export type CampaignTemplate = {
  key: string;
  title: string;
  /** One sentence: what the shopper gets, and what the merchant still chooses. */
  summary: string;
  build: (currency: string) => CampaignBody;
};

const money = (major: number, currency: string): number => toMinorUnits(String(major), currency) ?? major;
const slots = (count: number) => Array.from({ length: count }, () => ({ variantId: '', quantity: 1 }));
const FREE = { discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' } as const;

function rule(name: string, conditionTree: ConditionNode, gifts: number, options: Partial<RuleBody['options']> = {}): RuleBody {
  return {
    name,
    enabled: true,
    conditionTree: conditionTree as RuleBody['conditionTree'],
    giftConfig: { type: 'fixed', gifts: slots(gifts), fallbackOnOOS: false },
    options: { actionType: 'auto_add', ...FREE, ...options },
  };
}

const campaign = (name: string, rules: RuleBody[]): CampaignBody => ({ name, enabled: false, isDraft: true, startAt: null, endAt: null, rules });
const subtotal = (value: number): ConditionNode => ({ type: 'AND', children: [{ type: 'cart.subtotal_gte', value }] });

export const CAMPAIGN_TEMPLATES: readonly CampaignTemplate[] = [
  {
    key: 'spend-get',
    title: 'Spend X, get Y',
    summary: 'A free gift once the cart reaches an amount. Choose the gift; change the amount.',
    build: (currency) => campaign('Spend and get a gift', [rule('Spend 50 or more', subtotal(money(50, currency)), 1)]),
  },
  {
    key: 'buy-get',
    title: 'Buy X, get Y',
    summary: 'A free gift with a product. Choose the product in the condition, and the gift.',
    build: () => campaign('Buy and get a gift', [rule('Buy the product', { type: 'AND', children: [{ type: 'line.quantity_min', value: 1 }] }, 1)]),
  },
  {
    key: 'tiered',
    title: 'Tiered gifts',
    summary: 'A bigger gift for a bigger cart: the higher tier gives its gift instead of the lower one. Choose a gift per tier.',
    build: (currency) =>
      campaign('Tiered gifts', [
        rule('Tier 2: spend 100 or more', subtotal(money(100, currency)), 1, { priority: 2, exclusive: true }),
        rule('Tier 1: spend 50 or more', subtotal(money(50, currency)), 1, { priority: 1 }),
      ]),
  },
  {
    key: 'vip-choice',
    title: 'VIP choice',
    summary: 'Signed-in customers tagged VIP choose one of three gifts. Choose the three gifts.',
    build: () =>
      campaign('VIP gift choice', [
        rule(
          'VIP customers choose a gift',
          { type: 'AND', children: [{ type: 'customer.is_logged_in', value: true }, { type: 'customer.tag_in', value: ['VIP'] }] },
          3,
          { actionType: 'customer_choice', lockQuantity: false },
        ),
      ]),
  },
  {
    key: 'first-order',
    title: 'Welcome gift, once per customer',
    summary: "A welcome gift, once per customer: given to signed-in customers until they have had it. Choose the gift.",
    build: () => campaign('Welcome gift', [rule('Once per customer', { type: 'AND', children: [{ type: 'customer.is_logged_in', value: true }] }, 1, { maxPerCustomer: 1 })]),
  },
];

/** The template of `key`, or undefined. */
export const templateOf = (key: string): CampaignTemplate | undefined => CAMPAIGN_TEMPLATES.find((template) => template.key === key);
