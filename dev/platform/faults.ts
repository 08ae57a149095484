/**
 * Telling a family of the stand-in platform to misbehave for the next requests, as the real
 * platform sometimes does: throttled (429 with `Retry-After`), an outage (5xx), an `errors`
 * array with no data, or data missing a field the document selected.
 */
import type { GraphqlAnswer } from './standin.ts';

export type Fault =
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'outage'; status: 500 | 502 | 503 | 504 }
  /** `code`: the error's `extensions.code` (INTERNAL_SERVER_ERROR unless said; ACCESS_DENIED for a scope the app lacks). */
  | { kind: 'errors'; message: string; code?: string }
  /** The answer's data with the field at `path` (response keys from the root) removed. */
  | { kind: 'missing'; path: readonly string[] };

export type Faults = {
  /** Queues `fault` for the next `times` requests of the family (default once). */
  inject(fault: Fault, times?: number): void;
  clear(): void;
  /** The fault for this request, if one is queued (the family calls it first). */
  take(): Fault | undefined;
};

/** @example const faults = createFaults(); faults.inject({ kind: 'throttled', retryAfterSeconds: 2 }); */
export function createFaults(): Faults {
  const queue: Fault[] = [];
  return {
    inject: (fault, times = 1) => queue.push(...Array.from({ length: times }, () => fault)),
    clear: () => void queue.splice(0),
    take: () => queue.shift(),
  };
}

/** The platform's answer for a fault that replaces the whole answer; undefined for `missing`. */
export function faultAnswer(fault: Fault): GraphqlAnswer | undefined {
  switch (fault.kind) {
    case 'throttled':
      return { status: 429, headers: { 'retry-after': String(fault.retryAfterSeconds) }, errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] };
    case 'outage':
      return { status: fault.status, errors: [{ message: 'Internal error. Looks like something went wrong on our end.' }] };
    case 'errors':
      return { errors: [{ message: fault.message, extensions: { code: fault.code ?? 'INTERNAL_SERVER_ERROR' } }] };
    case 'missing':
      return undefined;
  }
}

/** Removes the field at `path` from `data` (the `missing` fault). */
export function dropPath(data: Record<string, unknown>, path: readonly string[]): void {
  let node: unknown = data;
  for (const key of path.slice(0, -1)) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  const last = path.at(-1);
  if (node !== null && typeof node === 'object' && last !== undefined) delete (node as Record<string, unknown>)[last];
}

/**
 * Runs a family's answer under its faults: a queued fault replaces or mangles it.
 *
 * @example answer: (call) => withFaults(faults, () => ({ data: … }))
 */
export async function withFaults(faults: Faults, answer: () => GraphqlAnswer | Promise<GraphqlAnswer>): Promise<GraphqlAnswer> {
  const fault = faults.take();
  const replaced = fault && faultAnswer(fault);
  if (replaced) return replaced;
  const result = await answer();
  if (fault?.kind === 'missing' && result.data) dropPath(result.data, fault.path);
  return result;
}
