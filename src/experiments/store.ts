/** A/B experiments in storage; every function takes the shop and the campaign first. */
import { and, desc, eq } from 'drizzle-orm';
import type { ExperimentRow } from '../campaigns/store.ts';
import type { Queryable } from '../db/database.ts';
import { experiments } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { StartExperimentBody } from './schemas.ts';
import type { ExperimentChanges } from './transitions.ts';
import { bytewise } from '../db/collation.ts';

/** Inserts a running experiment; each variant gets a `var_…` id. */
export async function insertExperiment(
  tx: Queryable,
  shopId: string,
  campaignId: string,
  input: StartExperimentBody,
  now: Date,
): Promise<ExperimentRow> {
  const [row] = await tx
    .insert(experiments)
    .values({
      shopId,
      id: newId('exp'),
      campaignId,
      status: 'running',
      primaryMetric: input.primaryMetric,
      variants: input.variants.map((variant) => ({ id: newId('var'), name: variant.name, ruleId: variant.ruleId, weight: variant.weight })),
      startedAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function getExperiment(
  db: Queryable,
  shopId: string,
  campaignId: string,
  experimentId: string,
): Promise<ExperimentRow | undefined> {
  const [row] = await db
    .select()
    .from(experiments)
    .where(and(eq(experiments.shopId, shopId), eq(experiments.campaignId, campaignId), eq(experiments.id, experimentId)));
  return row;
}

/** Every experiment of the campaign, newest first. */
export async function listExperiments(db: Queryable, shopId: string, campaignId: string): Promise<ExperimentRow[]> {
  return db
    .select()
    .from(experiments)
    .where(and(eq(experiments.shopId, shopId), eq(experiments.campaignId, campaignId)))
    .orderBy(desc(experiments.startedAt), desc(bytewise(experiments.id)));
}

export async function updateExperiment(
  tx: Queryable,
  shopId: string,
  experimentId: string,
  changes: ExperimentChanges,
): Promise<ExperimentRow> {
  const [row] = await tx
    .update(experiments)
    .set(changes)
    .where(and(eq(experiments.shopId, shopId), eq(experiments.id, experimentId)))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}
