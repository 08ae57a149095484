/**
 * Experiment status transitions (CONTRACT: `running`, `stopped`, `concluded`; SPEC leaves
 * them open). Start creates a running experiment; stop ends traffic splitting; conclude
 * records the winner, from running (stopping it at the same instant) or from stopped.
 * Concluded is final.
 */
import type { ExperimentRow } from '../campaigns/store.ts';
import type { ExperimentStatus } from './schemas.ts';

export type ExperimentChanges = {
  status: ExperimentStatus;
  stoppedAt: Date;
  concludedAt?: Date;
  winnerVariantId?: string;
};

export type TransitionOutcome =
  | { ok: true; changes: ExperimentChanges }
  | { ok: false; reason: 'not_running' | 'already_concluded' | 'unknown_variant' };

type Current = Pick<ExperimentRow, 'status' | 'stoppedAt' | 'variants'>;

/**
 * Stopping is allowed from running only.
 *
 * @example
 *   stopTransition({ status: 'running', stoppedAt: null, variants }, now); // { ok: true, changes: { status: 'stopped', stoppedAt: now } }
 */
export function stopTransition(current: Current, now: Date): TransitionOutcome {
  if (current.status !== 'running') return { ok: false, reason: 'not_running' };
  return { ok: true, changes: { status: 'stopped', stoppedAt: now } };
}

/**
 * Concluding is allowed from running or stopped, naming one of the experiment's variants.
 *
 * @example
 *   concludeTransition({ status: 'stopped', stoppedAt, variants }, 'var_a', now); // status 'concluded', winner var_a
 */
export function concludeTransition(current: Current, winnerVariantId: string, now: Date): TransitionOutcome {
  if (current.status === 'concluded') return { ok: false, reason: 'already_concluded' };
  if (!current.variants.some((variant) => variant.id === winnerVariantId)) return { ok: false, reason: 'unknown_variant' };
  return {
    ok: true,
    changes: { status: 'concluded', stoppedAt: current.stoppedAt ?? now, concludedAt: now, winnerVariantId },
  };
}
