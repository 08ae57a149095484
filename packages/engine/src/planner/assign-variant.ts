import type { EngineExperiment } from '../schema/rules-payload.ts';
import { fnv1a32 } from './fnv1a.ts';

export type ExperimentVariant = EngineExperiment['variants'][number];

/**
 * The experiment variant a visitor sees (CONTRACT: a stable hash of the visitor id;
 * only the assigned variant's rule applies). The hash is FNV-1a 32-bit of
 * `${visitorId}:${experiment.id}`, scaled onto the summed weights:
 * `point = hash / 2^32 * totalWeight`, and the first variant whose cumulative weight
 * exceeds `point` wins. Variants with a non-positive or non-finite weight are never
 * assigned. No visitor id, or no usable weight: the first variant. No variants: undefined.
 *
 * @example assignVariant({ id: 'exp_1', campaignId: 'cmp_1', variants }, 'visitor-42')
 */
export function assignVariant(
  experiment: Pick<EngineExperiment, 'id' | 'variants'>,
  visitorId: string | undefined,
): ExperimentVariant | undefined {
  const variants = experiment.variants;
  const first = variants[0];
  if (first === undefined || visitorId === undefined || visitorId === '') return first;
  let total = 0;
  for (const variant of variants) if (usable(variant.weight)) total += variant.weight;
  if (!(total > 0)) return first;
  const point = (fnv1a32(`${visitorId}:${experiment.id}`) / 0x1_0000_0000) * total;
  let cumulative = 0;
  for (const variant of variants) {
    if (!usable(variant.weight)) continue;
    cumulative += variant.weight;
    if (point < cumulative) return variant;
  }
  // Floating-point rounding at the very top of the range: the last usable variant.
  return variants.findLast((variant) => usable(variant.weight)) ?? first;
}

function usable(weight: number): boolean {
  return Number.isFinite(weight) && weight > 0;
}
