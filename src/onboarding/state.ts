/**
 * The getting-started checklist of the merchant admin (issue 23 item 7; docs/merchant-admin.md
 * "Getting started"), derived from what the shop's rows already say, so it can never claim a
 * step the service has not seen:
 *
 * - `connect`: the platform connection is there and not broken (install, or the operator's token);
 * - `embed`: the storefront script has reached the service through the app proxy at least once
 *   (`shops.storefront_seen_at`, written by storefront-seen.ts): only a switched-on app embed
 *   sends such requests;
 * - `campaign`: a campaign is enabled and not a draft;
 * - `gift`: a shopper got a gift: a `gift_added` storefront event, or an order with a gift in
 *   the daily statistics (events are pruned after their retention; the statistics stay).
 */
import { and, eq, exists, gt, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { campaigns, dailyCampaignStats, platformConnections, shops, storefrontEvents } from '../db/schema.ts';

export const ONBOARDING_STEPS = ['connect', 'embed', 'campaign', 'gift'] as const;

export const onboardingSchema = z.object({
  steps: z
    .array(z.object({ key: z.enum(ONBOARDING_STEPS), done: z.boolean() }))
    .meta({ description: 'In the order a merchant does them: connect, embed, campaign, gift' }),
  complete: z.boolean().meta({ description: 'Every step is done' }),
  dismissed: z.boolean().meta({ description: 'The merchant hid the checklist' }),
  embedUrl: z
    .string()
    .nullable()
    .meta({ description: "The theme editor with the app embed ready to switch on; null without PLATFORM_APP_KEY" }),
});

export type Onboarding = z.output<typeof onboardingSchema>;

/** The handle of the app embed block (extensions/gift-embed/blocks/gift-embed.liquid). */
const EMBED_HANDLE = 'gift-embed';

/**
 * The platform's deep link that opens the live theme's editor on App embeds with ours switched on
 * (it still needs the merchant's Save).
 *
 * @example embedEditorUrl('acme.myshopify.com', 'key'); // 'https://acme.myshopify.com/admin/themes/current/editor?context=apps&activateAppId=key/gift-embed'
 */
export const embedEditorUrl = (domain: string, appKey: string): string =>
  `https://${domain}/admin/themes/current/editor?context=apps&activateAppId=${encodeURIComponent(appKey)}/${EMBED_HANDLE}`;

/**
 * The checklist of one shop, in one query.
 *
 * @example await onboardingState(db, shop, config.platformAppKey); // { steps: [{ key: 'connect', done: true }, …], complete: false, … }
 */
export async function onboardingState(db: Queryable, shop: { id: string; domain: string }, appKey: string | undefined): Promise<Onboarding> {
  const [row] = await db
    .select({
      connect: exists(
        db.select({ one: sql`1` }).from(platformConnections).where(and(eq(platformConnections.shopId, shop.id), sql`${platformConnections.brokenAt} is null`)),
      ),
      embed: isNotNull(shops.storefrontSeenAt),
      campaign: exists(db.select({ one: sql`1` }).from(campaigns).where(and(eq(campaigns.shopId, shop.id), eq(campaigns.enabled, true), eq(campaigns.isDraft, false)))),
      giftEvent: exists(db.select({ one: sql`1` }).from(storefrontEvents).where(and(eq(storefrontEvents.shopId, shop.id), eq(storefrontEvents.type, 'gift_added')))),
      giftOrder: exists(db.select({ one: sql`1` }).from(dailyCampaignStats).where(and(eq(dailyCampaignStats.shopId, shop.id), gt(dailyCampaignStats.ordersWithGifts, 0)))),
      dismissed: isNotNull(shops.onboardingDismissedAt),
    })
    .from(shops)
    .where(eq(shops.id, shop.id));
  const done = { connect: row?.connect ?? false, embed: row?.embed ?? false, campaign: row?.campaign ?? false, gift: (row?.giftEvent ?? false) || (row?.giftOrder ?? false) };
  const steps = ONBOARDING_STEPS.map((key) => ({ key, done: Boolean(done[key]) }));
  return {
    steps,
    complete: steps.every((step) => step.done),
    dismissed: Boolean(row?.dismissed),
    embedUrl: appKey === undefined ? null : embedEditorUrl(shop.domain, appKey),
  };
}

/** Hides the checklist; the first dismissal's time is kept. */
export async function dismissOnboarding(db: Queryable, shopId: string, now: Date): Promise<void> {
  await db.update(shops).set({ onboardingDismissedAt: now }).where(and(eq(shops.id, shopId), sql`${shops.onboardingDismissedAt} is null`));
}
