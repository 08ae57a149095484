/**
 * Side effects of a campaign's live state changing (SPEC "States and transitions"), written
 * into the outbox inside the transaction of the change. "Live" is enabled and not draft —
 * the states the table names: `campaign.activated` when a campaign becomes live,
 * `campaign.deactivated` when it stops being live (disabled, back to draft, or deleted while
 * live). The automatic discount is synced on exactly the same transitions, so the two never
 * disagree and activated/deactivated alternate for each campaign.
 */
import type { Queryable } from '../db/database.ts';
import type { Trigger } from '../http/shop-routes.ts';
import { enqueueJob, enqueueWebhookEvent } from '../outbox/enqueue.ts';
import { isLive } from './caps.ts';

type CampaignState = { id: string; name: string; enabled: boolean; isDraft: boolean };

/**
 * Queues the discount sync and the webhook when `before` and `after` differ in liveness;
 * does nothing otherwise. `after` is null when the campaign was deleted.
 *
 * @example
 *   await db.transaction(async (tx) => {
 *     await setEnabled(tx, shop.id, id, true);
 *     await recordLiveTransition(tx, shop.id, before, { ...before, enabled: true, isDraft: false }, 'api');
 *   });
 */
export async function recordLiveTransition(
  tx: Queryable,
  shopId: string,
  before: CampaignState,
  after: CampaignState | null,
  trigger: Trigger,
): Promise<void> {
  const wasLive = isLive(before);
  const nowLive = after !== null && isLive(after);
  if (wasLive === nowLive) return;
  await enqueueJob(tx, shopId, 'discount_sync', { campaignId: before.id, active: nowLive });
  const state = after ?? { ...before, enabled: false };
  await enqueueWebhookEvent(tx, shopId, nowLive ? 'campaign.activated' : 'campaign.deactivated', {
    campaignId: before.id,
    name: state.name,
    enabled: state.enabled,
    isDraft: state.isDraft,
    trigger,
    ...(after === null ? { deleted: true } : {}),
  });
}

/**
 * Queues the discount sync of campaigns created live (import): no webhook, as SPEC's States
 * table lists none for import.
 *
 * @example
 *   await queueDiscountSyncs(tx, shop.id, ['cmp_1', 'cmp_2']);
 */
export async function queueDiscountSyncs(tx: Queryable, shopId: string, liveCampaignIds: readonly string[]): Promise<void> {
  for (const campaignId of liveCampaignIds) await enqueueJob(tx, shopId, 'discount_sync', { campaignId, active: true });
}
