/**
 * Stacking across rules (issue 13): which matching rules a higher one suppresses. Pure and
 * shared by the planner (`evaluateRules`) and the checkout function, so the storefront,
 * `/evaluate`, the simulator and the checkout agree.
 */

/** A matching rule, in payload order, with what stacking reads of it. */
export type StackEntry = { id: string; campaign: string; priority: number; exclusive: boolean };

export type Stacking = 'all' | 'highest_tier';

/** Why a matching rule gives nothing, and the rule that won over it. */
export type Suppression = { reason: 'suppressed_by_higher_tier' | 'suppressed_by_exclusive'; by: string };

export const SUPPRESSED = {
  higherTier: 'suppressed_by_higher_tier',
  exclusive: 'suppressed_by_exclusive',
} as const;

/**
 * The suppressed rules among `matching` (payload order), by id:
 * 1. `highest_tier`: in each campaign only its highest rule gives — highest `priority`, ties
 *    to the one LATER in payload order (the last, highest threshold of a tier list); the
 *    others are `suppressed_by_higher_tier`.
 * 2. Exclusive: the remaining rules ordered by priority (higher first), ties by payload order
 *    (earlier first); the first exclusive one suppresses every rule after it in that order
 *    (`suppressed_by_exclusive`), exclusive ones included. Rules before it still give.
 * A suppressed rule suppresses nothing. With `all` and no exclusive rule nothing is suppressed.
 *
 * @example stackRules([{ id: 'a', campaign: 'c', priority: 1, exclusive: true }, { id: 'b', campaign: 'd', priority: 0, exclusive: false }], 'all')
 * // Map { 'b' => { reason: 'suppressed_by_exclusive', by: 'a' } }
 */
export function stackRules(matching: readonly StackEntry[], stacking: Stacking): Map<string, Suppression> {
  const suppressed = new Map<string, Suppression>();
  let remaining = matching;
  if (stacking === 'highest_tier') {
    const winners = new Map<string, StackEntry>();
    for (const entry of matching) {
      const winner = winners.get(entry.campaign);
      if (winner === undefined || entry.priority >= winner.priority) winners.set(entry.campaign, entry);
    }
    remaining = matching.filter((entry) => {
      const winner = winners.get(entry.campaign);
      if (winner === undefined || winner === entry) return true;
      suppressed.set(entry.id, { reason: SUPPRESSED.higherTier, by: winner.id });
      return false;
    });
  }
  if (!remaining.some((entry) => entry.exclusive)) return suppressed;
  // Array.prototype.sort is stable: equal priorities keep payload order.
  const ordered = [...remaining].sort((a, b) => b.priority - a.priority);
  const first = ordered.findIndex((entry) => entry.exclusive);
  const winner = ordered[first];
  if (winner === undefined) return suppressed;
  for (const entry of ordered.slice(first + 1)) suppressed.set(entry.id, { reason: SUPPRESSED.exclusive, by: winner.id });
  return suppressed;
}
