/**
 * Background work of one instance (outbox dispatch, event, outbox and platform webhook id retention). `npm start` starts every
 * worker listed here; SIGTERM stops them after the HTTP server has drained, and each
 * worker's stop() finishes the work it has in hand before resolving.
 */
import type { AppContext } from './context.ts';
import { createEventRetentionWorker } from './events/retention.ts';
import { createOutboxDispatcher } from './outbox/dispatcher.ts';
import { createOutboxRetentionWorker } from './outbox/retention.ts';
import { createDeliveryRetentionWorker } from './platform-webhooks/deliveries.ts';
import type { Worker } from './periodic-worker.ts';
import { createPlatformJobs } from './platform-jobs.ts';
import { createWebhookSender } from './webhooks/sender.ts';

/** Every worker of the service; features add theirs to this list. */
export function createWorkers(ctx: AppContext): Worker[] {
  const platform = { secret: ctx.config.platformAppSecret, adminApiUrl: ctx.config.platformAdminApiUrl };
  return [
    createEventRetentionWorker(ctx),
    createOutboxRetentionWorker(ctx),
    createDeliveryRetentionWorker(ctx),
    createOutboxDispatcher({
      db: ctx.db,
      logger: ctx.logger,
      jobs: createPlatformJobs({
        db: ctx.db,
        logger: ctx.logger,
        discountPort: ctx.discountPort,
        // Each page stored is a unit of work of the shop: it tells the caches as any shop write does.
        catalogImport: { ...platform, rulesCache: ctx.rulesCache, shopVersions: ctx.shopVersions, invalidation: ctx.invalidation },
        orderRepair: { ...platform, caches: ctx },
      }),
      webhooks: createWebhookSender({ allowList: ctx.config.webhookAllowList }),
      pollMs: ctx.config.outboxPollMs,
      concurrency: ctx.config.outboxConcurrency,
      perEndpoint: ctx.config.outboxEndpointConcurrency,
      syncConcurrency: ctx.config.outboxSyncConcurrency,
    }),
  ];
}

export function startWorkers(workers: readonly Worker[]): void {
  for (const worker of workers) worker.start();
}

export async function stopWorkers(workers: readonly Worker[]): Promise<void> {
  await Promise.all(workers.map((worker) => worker.stop()));
}
