/**
 * The platform jobs of the outbox (outbox/claim.ts PLATFORM_JOB_KINDS), each run by the feature
 * that owns it: the dispatcher knows the kinds, not the features (docs/architecture.md).
 */
import type { Logger } from 'pino';
import { runDiscountSync } from './checkout/discount-sync-job.ts';
import type { Database } from './db/database.ts';
import { runCatalogImport } from './install/catalog-import.ts';
import type { CatalogImportOptions } from './install/catalog-import.ts';
import type { PlatformJob, PlatformJobs } from './outbox/dispatcher.ts';
import type { DiscountPort } from './platform/discount-port.ts';
import { runRedemptionsSync } from './redemptions/sync-job.ts';
import { runOrderRepair } from './repairs/job.ts';
import type { OrderRepairOptions } from './repairs/job.ts';

export type PlatformJobOptions = {
  db: Database;
  logger: Logger;
  discountPort: DiscountPort;
  /** How `catalog_import` jobs reach the platform (src/install/catalog-import.ts); without it they fail and are retried. */
  catalogImport?: Omit<CatalogImportOptions, 'db'>;
  /** How `order_repair` jobs reach the platform (src/repairs/job.ts); without it they fail and are retried. */
  orderRepair?: Omit<OrderRepairOptions, 'db'>;
};

const noAccess =
  (what: string): PlatformJob =>
  async () => ({ ok: false, statusCode: null, error: `This dispatcher has no platform access for ${what}`, durationMs: 0 });

/**
 * @example
 *   createOutboxDispatcher({ db, logger, jobs: createPlatformJobs({ db, logger, discountPort }), pollMs: 1000 });
 */
export function createPlatformJobs(options: PlatformJobOptions): PlatformJobs {
  const { db, discountPort, catalogImport, orderRepair } = options;
  const logger = options.logger.child({ worker: 'outbox' });
  return {
    discount_sync: (shopId, payload) => runDiscountSync(db, discountPort, shopId, payload),
    redemptions_sync: (shopId, payload) => runRedemptionsSync(db, discountPort, shopId, payload),
    catalog_import: catalogImport === undefined ? noAccess('catalog imports') : (shopId, payload) => runCatalogImport({ ...catalogImport, db }, shopId, payload),
    order_repair:
      orderRepair === undefined ? noAccess('order repairs') : (shopId, payload, attempt) => runOrderRepair({ logger, ...orderRepair, db }, shopId, payload, attempt),
  };
}
