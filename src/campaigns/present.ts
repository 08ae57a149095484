/** Storage rows → SPEC's response shapes (timestamps as ISO 8601 with milliseconds and Z). */
import type { CampaignRow, CampaignWithRules, ExperimentRow, RuleRecord } from './store.ts';

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date === null ? null : date.toISOString());

const campaignFields = (c: Omit<CampaignRow, 'budget'>) => ({
  id: c.id,
  name: c.name,
  enabled: c.enabled,
  isDraft: c.isDraft,
  startAt: isoOrNull(c.startAt),
  endAt: isoOrNull(c.endAt),
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});

export const presentListItem = (c: Omit<CampaignRow, 'budget'> & { rulesCount: number }) => ({ ...campaignFields(c), rulesCount: c.rulesCount });

export const presentRule = (r: RuleRecord) => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  conditionTree: r.conditionTree,
  giftConfig: r.giftConfig,
  options: r.options,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const presentExperiment = (e: ExperimentRow) => ({
  id: e.id,
  status: e.status,
  primaryMetric: e.primaryMetric,
  startedAt: iso(e.startedAt),
  stoppedAt: isoOrNull(e.stoppedAt),
  concludedAt: isoOrNull(e.concludedAt),
  winnerVariantId: e.winnerVariantId,
  variants: e.variants,
});

/** A single campaign; `budget` only when it has one, so a campaign without keeps SPEC's shape. */
export const presentCampaign = (c: CampaignWithRules, experiment: ExperimentRow | undefined) => ({
  ...campaignFields(c),
  ...(c.budget ? { budget: c.budget } : {}),
  rules: c.rules.map(presentRule),
  experiment: experiment ? presentExperiment(experiment) : null,
});
