/**
 * Plans and their caps (CONTRACT "Admin API"). A shop's effective cap is its own override
 * where it has one, else its plan's default.
 */
import { planSchema } from '@gcrs/engine';
import type { Plan } from '@gcrs/engine';
import { z } from 'zod';

// The plans are the engine's (its plan matrix gates the leaf types): one list for server and admin.
export { planSchema };
export type { Plan };
export const PLANS = planSchema.options;

export const CAP_NAMES = ['campaigns', 'rules', 'activeCampaigns'] as const;
export type CapName = (typeof CAP_NAMES)[number];
export type Caps = Record<CapName, number>;
export type PlanCaps = Record<Plan, Caps>;

export const DEFAULT_PLAN_CAPS: PlanCaps = {
  free: { campaigns: 3, rules: 10, activeCampaigns: 1 },
  growth: { campaigns: 20, rules: 100, activeCampaigns: 5 },
  pro: { campaigns: 100, rules: 500, activeCampaigns: 25 },
  scale: { campaigns: 1000, rules: 10000, activeCampaigns: 200 },
};

const capsPatch = z.object({
  campaigns: z.int().min(0).optional(),
  rules: z.int().min(0).optional(),
  activeCampaigns: z.int().min(0).optional(),
});

/** PLAN_CAPS in the environment: a partial table overriding the defaults, e.g. `{"free":{"campaigns":5}}`. */
export const planCapsOverrideSchema = z.partialRecord(planSchema, capsPatch.strict());

export function mergePlanCaps(override: z.infer<typeof planCapsOverrideSchema> | undefined): PlanCaps {
  const merged = structuredClone(DEFAULT_PLAN_CAPS);
  for (const plan of PLANS) Object.assign(merged[plan], override?.[plan] ?? {});
  return merged;
}

/** Only the Scale plan may use API keys (SPEC "Authentication"). */
export const hasApiAccess = (plan: Plan): boolean => plan === 'scale';

/**
 * The caps in force for a shop.
 *
 * @example
 *   effectiveCaps(DEFAULT_PLAN_CAPS, 'free', { campaigns: 5 }); // { campaigns: 5, rules: 10, activeCampaigns: 1 }
 */
export function effectiveCaps(table: PlanCaps, plan: Plan, overrides: Partial<Caps>): Caps {
  return { ...table[plan], ...overrides };
}
