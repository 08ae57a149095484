/**
 * The one list of a repair's statuses (docs/repairs.md "Statuses"): what each means, whether it
 * is final, and whether it holds the budget unit and the redemption the repair took. The job,
 * the give-backs and the admin's list read this table, so a new status is one entry here.
 */

export type RepairStatusInfo = {
  /** No job run moves the row again (a cancellation may still end a held repair: see `cancellable`). */
  final: boolean;
  /** The budget unit and the customer's redemption are taken and not yet given back. */
  holds: boolean;
  /** A cancellation of the order (or a refund of the gift) ends it as `cancelled`, giving back what it holds. */
  cancellable: boolean;
};

export const REPAIR_STATUSES = {
  /** Planned from `orders/paid`; nothing taken yet. */
  pending: { final: false, holds: false, cancellable: true },
  /** Budget and redemption taken; the platform calls are under way (or a crash left them so). */
  editing: { final: false, holds: true, cancellable: true },
  /** Budget and redemption taken; the platform was throttled or down, the job retries. */
  reserved: { final: false, holds: true, cancellable: true },
  /** A run found the row `editing`: the edit may or may not be on the order, for the merchant to check. */
  interrupted: { final: true, holds: true, cancellable: true },
  /** The gift is on the order; from now on refunds and cancellations give it back as a gift line. */
  repaired: { final: true, holds: true, cancellable: false },
  /** The platform refused the edit; what was taken was given back. */
  failed: { final: true, holds: false, cancellable: false },
  /** The order was cancelled (or the gift refunded) before the repair ended; what was taken was given back. */
  cancelled: { final: true, holds: false, cancellable: false },
  skipped_customer_choice: { final: true, holds: false, cancellable: false },
  skipped_sold_out: { final: true, holds: false, cancellable: false },
  skipped_budget: { final: true, holds: false, cancellable: false },
  skipped_limit: { final: true, holds: false, cancellable: false },
  skipped_not_connected: { final: true, holds: false, cancellable: false },
  skipped_order_gone: { final: true, holds: false, cancellable: false },
} as const satisfies Record<string, RepairStatusInfo>;

export type RepairStatus = keyof typeof REPAIR_STATUSES;

/** The statuses by name, as the admin API's enum lists them (src/repairs/routes.ts). */
export const REPAIR_STATUS_NAMES = Object.keys(REPAIR_STATUSES) as [RepairStatus, ...RepairStatus[]];

const statusesWhere = (test: (info: RepairStatusInfo) => boolean): RepairStatus[] =>
  (Object.keys(REPAIR_STATUSES) as RepairStatus[]).filter((status) => test(REPAIR_STATUSES[status]));

/** Statuses a job run leaves alone. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(statusesWhere((info) => info.final));

/** Statuses a cancellation ends: `pending`, `reserved`, `interrupted`, `editing` (the last by a mark the job acts on). */
export const CANCELLABLE_STATUSES: readonly RepairStatus[] = statusesWhere((info) => info.cancellable);
