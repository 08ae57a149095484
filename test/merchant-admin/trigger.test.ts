/**
 * A change made in the merchant admin reaches webhook receivers with `trigger: "admin"`
 * (docs/merchant-admin.md "The mount"): the same lifecycle handler as the API, another mount.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness } from '../lifecycle/harness.ts';
import type { Harness } from '../lifecycle/harness.ts';
import { openLoginLink } from '../support/login-link.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it('enable and disable through the app send campaign.activated/deactivated with trigger admin', async () => {
  const shop = await h.newShop();
  const id = await h.createCampaign(shop, { enabled: false, isDraft: false });
  await h.drain(shop);

  const link = await h.t.admin({ method: 'POST', url: `/admin/v1/shops/${shop.id}/login-links` });
  const url = new URL((link.json() as { url: string }).url);
  const opened = await openLoginLink(h.t.app, url.href);
  const cookie = String(opened.headers['set-cookie']).split(';')[0] ?? '';
  const session = await h.t.app.inject({ method: 'GET', url: '/app/api/v1/session', headers: { cookie } });
  const headers = { cookie, 'x-csrf-token': (session.json() as { csrfToken: string }).csrfToken };

  expect((await h.t.app.inject({ method: 'POST', url: `/app/api/v1/campaigns/${id}/enable?force=1`, headers })).statusCode).toBe(200);
  expect((await h.t.app.inject({ method: 'POST', url: `/app/api/v1/campaigns/${id}/disable`, headers })).statusCode).toBe(200);
  const sent = await h.drain(shop);
  expect(sent.map((event) => [event.type, event.data.trigger])).toEqual([
    ['campaign.activated', 'admin'],
    ['campaign.deactivated', 'admin'],
  ]);
});
