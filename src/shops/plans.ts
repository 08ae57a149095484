/**
 * Plans and their caps (CONTRACT "Admin API"). A shop's effective cap is its own override
 * where it has one, else its plan's default.
 */
import { PLANS, PLAN_IDS, byPlan, planSchema } from '@gcrs/engine';
import type { Caps, Plan } from '@gcrs/engine';
import { z } from 'zod';

// The plans are the engine's plan registry (one record per plan): one list for server and admin.
export { planSchema };
export type { Plan };
export type PlanCaps = Record<Plan, Caps>;

/** Each plan's caps as its record in the engine's plan registry sets them. */
export const DEFAULT_PLAN_CAPS: PlanCaps = byPlan((plan) => ({ ...PLANS[plan].caps }));

const capsPatch = z.object({
  campaigns: z.int().min(0).optional(),
  rules: z.int().min(0).optional(),
  activeCampaigns: z.int().min(0).optional(),
});

/** PLAN_CAPS in the environment: a partial table overriding the defaults, e.g. `{"free":{"campaigns":5}}`. */
export const planCapsOverrideSchema = z.partialRecord(planSchema, capsPatch.strict());

export function mergePlanCaps(override: z.infer<typeof planCapsOverrideSchema> | undefined): PlanCaps {
  const merged = structuredClone(DEFAULT_PLAN_CAPS);
  for (const plan of PLAN_IDS) Object.assign(merged[plan], override?.[plan] ?? {});
  return merged;
}

/** Only the Scale plan may use API keys (SPEC "Authentication"): its record's `apiAccess`. */
export const hasApiAccess = (plan: Plan): boolean => PLANS[plan].apiAccess;

/**
 * The caps in force for a shop.
 *
 * @example
 *   effectiveCaps(DEFAULT_PLAN_CAPS, 'free', { campaigns: 5 }); // { campaigns: 5, rules: 10, activeCampaigns: 1 }
 */
export function effectiveCaps(table: PlanCaps, plan: Plan, overrides: Partial<Caps>): Caps {
  return { ...table[plan], ...overrides };
}
