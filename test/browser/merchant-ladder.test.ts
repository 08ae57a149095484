/**
 * Issue 23 item 9, the tier ladder editor in real Chromium: from the campaigns screen a merchant
 * builds "spend 50 → mug, 100 → mug + tote, 150 → choose one of three", meets the ladder's own
 * check and the server's 400 at its field, creates it (one import) and the API holds the rules a
 * ladder is stored as; reopening the campaign from the list shows the ladder again, a save is one
 * PUT, "Edit rule by rule" opens the campaign editor; a campaign that is not a ladder opens in the
 * campaign editor, and another shop's campaign is not found. Each chosen gift reads as its
 * product (title, price, stock; an id the catalog lacks as unknown), after a pick and on reopening. axe and screenshots (checkScreen).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutChromium } from '../support/chromium.ts';
import { checkScreen, openPage, startMerchantAdmin } from '../support/merchant-admin.ts';
import type { MerchantAdminStack } from '../support/merchant-admin.ts';
import type { TestShop } from '../support/test-app.ts';

type Rule = { id: string; name: string; conditionTree: unknown; giftConfig: { gifts: Array<{ variantId: string }> }; options: { actionType: string } };
const gid = (n: number) => `gid://shopify/ProductVariant/${n}`;
const gte = (value: number) => ({ type: 'cart.subtotal_gte', value });

describe.skipIf(skipWithoutChromium())('the tier ladder editor, in Chromium', () => {
  let stack: MerchantAdminStack;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    stack = await startMerchantAdmin();
    shop = await stack.t.createShop('growth');
    other = await stack.t.createShop('growth');
    const product = (id: number, title: string) => ({ id: `gid://shopify/Product/${id}`, title, status: 'active', variants: [{ id: gid(id * 10 + 1), title: 'Default Title', inventoryQuantity: 50, inventoryPolicy: 'DENY', price: id * 1500 }] });
    const seeded = await stack.t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/catalog`, payload: { products: [product(1, 'Enamel Mug'), product(2, 'Canvas Tote')] } });
    expect(seeded.statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  const api = async (shopId: string, method: 'GET' | 'POST', path: string, payload?: unknown) => (await stack.t.admin({ method, url: `/admin/v1/shops/${shopId}${path}`, ...(payload ? { payload } : {}) })).json() as Record<string, unknown>;

  it('builds a three-tier ladder, saves it as rules, reopens it as a ladder', async () => {
    const { page, errors } = await openPage(stack.browser, /status of 400/);
    const field = (label: string) => page.getByLabel(label, { exact: true });
    const notice = page.getByRole('status').filter({ hasText: 'Not saved' });
    const card = (label: string) => page.getByRole('group', { name: `${label}, chosen` });

    await stack.signIn(page, shop.id);
    await page.getByRole('link', { name: 'Tier ladder' }).click();
    await page.getByRole('heading', { name: 'New tier ladder', level: 1 }).waitFor();
    await field('Campaign name').fill('Spend more, get more');

    // Tier 1: $50 → the mug, chosen from the catalog.
    expect(await field('Tier 1: when the cart reaches').inputValue()).toBe('50.00');
    await page.getByRole('button', { name: 'Choose from catalog for Tier 1 gift 1' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Choose Enamel Mug, $15.00, 50 in stock' }).click();
    expect(await field('Tier 1 gift 1').inputValue()).toBe(gid(11));
    await expect.poll(() => card('Tier 1 gift 1').textContent()).toBe('Enamel Mug$15.00 · 50 in stock');

    // Tier 2 (a new ladder starts with two): $100 → mug + tote.
    expect(await field('Tier 2: when the cart reaches').inputValue()).toBe('100.00');
    expect(await field('Tier 2 name').inputValue()).toBe('Spend 100.00 USD');
    await field('Tier 2 gift 1').fill(gid(11));
    await page.getByRole('button', { name: 'Add gift to Tier 2' }).click();
    await page.getByRole('button', { name: 'Choose from catalog for Tier 2 gift 2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Choose Canvas Tote, $30.00, 50 in stock' }).click();

    // Tier 3: $150 → one of three, the third left empty for the server to refuse.
    await page.getByRole('button', { name: 'Add tier' }).click();
    await field('Tier 3 gift 1').fill(gid(31));
    await page.getByRole('button', { name: 'Add gift to Tier 3' }).click();
    await field('Tier 3 gift 2').fill(gid(41));
    await expect.poll(() => card('Tier 3 gift 2').textContent()).toBe(`Unknown product (id ${gid(41)})`);
    await page.getByRole('button', { name: 'Add gift to Tier 3' }).click();
    await field('Tier 3: the shopper chooses one of these gifts').check();

    // The ladder's own check: a tier must ask for more than the one before.
    await field('Tier 3: when the cart reaches').fill('90');
    await page.getByRole('button', { name: 'Create ladder' }).last().click();
    await notice.getByText('Not saved: Tier 3 must ask for more than tier 2 does.').waitFor();
    await field('Tier 3: when the cart reaches').fill('150');
    expect(await field('Tier 3 name').inputValue()).toBe('Spend 150.00 USD');

    // The server's 400 (an empty variant id) at its field.
    await page.getByRole('button', { name: 'Create ladder' }).last().click();
    await notice.getByText(/\(tier 3\)/).waitFor();
    expect(await field('Tier 3 gift 3').getAttribute('aria-invalid')).toBe('true');
    await checkScreen(page, 'ladder-error');
    await field('Tier 3 gift 3').fill(gid(11));
    await checkScreen(page, 'ladder-new');

    await page.getByRole('button', { name: 'Create ladder' }).last().click();
    await page.getByRole('heading', { name: 'Edit Spend more, get more', level: 1 }).waitFor();
    const id = /#\/ladder\/(.+)$/.exec(page.url())?.[1] ?? '';
    const { campaign } = (await api(shop.id, 'GET', `/campaigns/${id}`)) as { campaign: { rules: Rule[] } };
    // One rule per added gift, one for the choice; each tier bounded by the next.
    expect(campaign.rules.map((rule) => [rule.name, rule.options.actionType, rule.giftConfig.gifts.map((gift) => gift.variantId)])).toEqual([
      ['Spend 50.00 USD', 'auto_add', [gid(11)]],
      ['Spend 100.00 USD · gift 1', 'auto_add', [gid(11)]],
      ['Spend 100.00 USD · gift 2', 'auto_add', [gid(21)]],
      ['Spend 150.00 USD', 'customer_choice', [gid(31), gid(41), gid(11)]],
    ]);
    expect(campaign.rules.map((rule) => rule.conditionTree)).toEqual([
      { type: 'AND', children: [gte(5000), { type: 'NOT', child: gte(10000) }] },
      { type: 'AND', children: [gte(10000), { type: 'NOT', child: gte(15000) }] },
      { type: 'AND', children: [gte(10000), { type: 'NOT', child: gte(15000) }] },
      { type: 'AND', children: [gte(15000)] },
    ]);

    // Reopened from the campaigns list: the ladder again, not four rules.
    await page.getByRole('link', { name: 'Campaigns' }).first().click();
    await page.getByRole('link', { name: 'Edit Spend more, get more' }).click();
    await page.waitForURL((url) => url.hash === `#/ladder/${id}`);
    await page.getByRole('heading', { name: 'Edit Spend more, get more', level: 1 }).waitFor();
    expect(await field('Tier 2: when the cart reaches').inputValue()).toBe('100.00');
    expect(await field('Tier 2 gift 2').inputValue()).toBe(gid(21));
    await expect.poll(() => card('Tier 2 gift 2').textContent()).toBe('Canvas Tote$30.00 · 50 in stock');
    expect(await field('Tier 3: the shopper chooses one of these gifts').isChecked()).toBe(true);
    expect(await field('Tier 3 gift 3').inputValue()).toBe(gid(11));
    await checkScreen(page, 'ladder-edit');

    // A save is one PUT that keeps the rules' ids.
    await field('Tier 1: when the cart reaches').fill('40');
    await page.getByRole('button', { name: 'Save ladder' }).last().click();
    await page.getByText('Spend more, get more is saved').waitFor();
    const saved = (await api(shop.id, 'GET', `/campaigns/${id}`)) as { campaign: { rules: Rule[] } };
    expect(saved.campaign.rules.map((rule) => rule.id)).toEqual(campaign.rules.map((rule) => rule.id));
    expect(saved.campaign.rules[0]?.conditionTree).toEqual({ type: 'AND', children: [gte(4000), { type: 'NOT', child: gte(10000) }] });
    expect(saved.campaign.rules[0]?.name).toBe('Spend 40.00 USD');

    await page.getByRole('link', { name: 'Edit rule by rule' }).click();
    await page.getByRole('heading', { name: 'Rule 4: Spend 150.00 USD' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/campaigns/${id}/rules$`));
    expect(errors).toEqual([]);
  });

  it('opens a campaign that is not a ladder in the campaign editor, and finds no other shop’s campaign', async () => {
    const { page, errors } = await openPage(stack.browser, /status of 404/);
    const plain = { name: 'Mug over 50', rules: [{ name: 'Mug', conditionTree: gte(5000), giftConfig: { type: 'fixed', gifts: [{ variantId: gid(11), quantity: 1 }] }, options: {} }] };
    const [plainId] = ((await api(shop.id, 'POST', '/campaigns/import', { campaigns: [plain] })) as { campaignIds: string[] }).campaignIds;
    const [foreignId] = ((await api(other.id, 'POST', '/campaigns/import', { campaigns: [plain] })) as { campaignIds: string[] }).campaignIds;

    await stack.signIn(page, shop.id);
    await page.goto(`${stack.base}/app/#/ladder/${plainId}`);
    await page.getByRole('heading', { name: 'Rule 1: Mug' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/campaigns/${plainId}/rules$`));
    await page.goto(`${stack.base}/app/#/campaigns/${plainId}`);
    await page.getByRole('heading', { name: 'Rule 1: Mug' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/campaigns/${plainId}$`));

    await page.goto(`${stack.base}/app/#/ladder/${foreignId}`);
    await page.getByText('The campaign could not be loaded').first().waitFor();
    await checkScreen(page, 'ladder-not-found');
    expect(errors).toEqual([]);
  });
});
