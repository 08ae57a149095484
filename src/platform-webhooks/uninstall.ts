/**
 * `app/uninstalled` (CONTRACT part two "Platform webhooks"): the shop removed the app, so
 * nothing of it may be offered any more. Every live campaign is disabled through the same
 * transition as POST /campaigns/:id/disable — the discount sync and `campaign.deactivated`
 * queued in the unit of work — with `trigger: "admin"` (CONTRACT lists `api`, `admin` and
 * `schedule` only; the merchant removed the app in the platform's admin). Nothing is deleted: a shop that
 * installs the app again finds its campaigns disabled and enables what it wants. The shop's
 * platform access token is deleted: the platform has revoked it (a reinstall issues a new one).
 */
import { and, eq } from 'drizzle-orm';
import { endCurrentSubscription } from '../billing/subscriptions.ts';
import { updateCampaignFields } from '../campaigns/lifecycle-store.ts';
import { liveTransitionEvents } from '../campaigns/transitions.ts';
import { campaigns } from '../db/schema.ts';
import { disconnectShop } from '../platform/connections.ts';
import type { ShopUnitOfWork } from '../shops/unit-of-work.ts';

/**
 * Disables the shop's live campaigns; returns their ids.
 *
 * @example
 *   await writeShop(ctx, shop.id, (uow) => disableLiveCampaigns(uow)); // ['cmp_…']
 */
export async function disableLiveCampaigns(uow: ShopUnitOfWork): Promise<string[]> {
  const { tx, shop } = uow;
  const live = await tx
    .select({ id: campaigns.id, name: campaigns.name, enabled: campaigns.enabled, isDraft: campaigns.isDraft })
    .from(campaigns)
    .where(and(eq(campaigns.shopId, shop.id), eq(campaigns.enabled, true), eq(campaigns.isDraft, false)));
  for (const campaign of live) {
    const after = await updateCampaignFields(tx, shop.id, campaign.id, { enabled: false });
    if (after) uow.enqueue(...liveTransitionEvents(campaign, after, 'admin'));
  }
  if (live.length > 0) uow.touchRules();
  return live.map((campaign) => campaign.id);
}

/**
 * The whole of `app/uninstalled`: the access token forgotten, the live campaigns disabled, the
 * platform-billed plan back to Free (the platform cancels the app's subscription; docs/billing.md).
 *
 * @example
 *   await writeShop(ctx, shop.id, (uow) => uninstallShop(uow));
 */
export async function uninstallShop(uow: ShopUnitOfWork): Promise<string[]> {
  await disconnectShop(uow.tx, uow.shop.id);
  await endCurrentSubscription(uow, new Date());
  return disableLiveCampaigns(uow);
}
