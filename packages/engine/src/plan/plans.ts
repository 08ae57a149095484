/**
 * The plan registry: one record per plan, cheapest first (the order is the plans' rank: a
 * leaf unlocked on a plan is unlocked on every later one). Everything that names plans is
 * derived from it: `planSchema` and the leaf matrix (plan-matrix.ts), the server's caps,
 * API access and custom-code gate, billing's paid plans, the admin's plan names. Adding a
 * plan is one record here (plus its tests). No Zod here: the record is plain data.
 */

/** The caps a plan sets by default (CONTRACT "Admin API"); an operator may override them. */
export const CAP_NAMES = ['campaigns', 'rules', 'activeCampaigns'] as const;
export type CapName = (typeof CAP_NAMES)[number];
export type Caps = Record<CapName, number>;

type PlanRecord = {
  /** As people read it: the admin's label, and the platform subscription's `name` for a paid plan. */
  name: string;
  /** Whether the platform bills it (billing sells only paid plans). */
  paid: boolean;
  caps: Caps;
  /** Whether the shop may use API keys (SPEC "Authentication": Scale only). */
  apiAccess: boolean;
  /** Whether the storefront gets the shop's custom HTML/CSS/JS (SPEC "PUT /widgets": Scale only). */
  customCode: boolean;
};

export const PLANS = {
  free: { name: 'Free', paid: false, caps: { campaigns: 3, rules: 10, activeCampaigns: 1 }, apiAccess: false, customCode: false },
  growth: { name: 'Growth', paid: true, caps: { campaigns: 20, rules: 100, activeCampaigns: 5 }, apiAccess: false, customCode: false },
  pro: { name: 'Pro', paid: true, caps: { campaigns: 100, rules: 500, activeCampaigns: 25 }, apiAccess: false, customCode: false },
  scale: { name: 'Scale', paid: true, caps: { campaigns: 1000, rules: 10000, activeCampaigns: 200 }, apiAccess: true, customCode: true },
} satisfies Record<string, PlanRecord>;

export type Plan = keyof typeof PLANS;
/** The plans the platform bills, by their records' `paid`. */
export type PaidPlan = { [P in Plan]: (typeof PLANS)[P]['paid'] extends true ? P : never }[Plan];

/** The plan ids, cheapest first. */
export const PLAN_IDS = Object.keys(PLANS) as [Plan, ...Plan[]];

/**
 * A table with one entry per plan, derived from the registry.
 *
 * @example byPlan((plan) => PLANS[plan].caps.rules) // { free: 10, growth: 100, ... }
 */
export function byPlan<T>(entry: (plan: Plan) => T): Record<Plan, T> {
  // Every plan id gets its entry, so the object has the record's keys.
  return Object.fromEntries(PLAN_IDS.map((plan) => [plan, entry(plan)])) as Record<Plan, T>;
}

/** Each plan's name as people read it, e.g. `PLAN_NAMES.growth` is 'Growth'. */
export const PLAN_NAMES: Readonly<Record<Plan, string>> = byPlan((plan) => PLANS[plan].name);

/**
 * Where a plan stands, cheapest first (0 for the first).
 *
 * @example planRank('pro') > planRank('growth') // true
 */
export const planRank = (plan: Plan): number => PLAN_IDS.indexOf(plan);
