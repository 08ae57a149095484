/**
 * Schedule windows of live campaigns and the time segments they cut: between two
 * consecutive boundaries (a startAt or endAt of any window) the set of campaigns in their
 * window cannot change, so a rules payload built at one instant stays exact until the next
 * boundary. Windows are half-open, [startAt, endAt), as the engine evaluates them: a
 * campaign ending at midnight is over at midnight.
 */

export type ScheduleWindow = { startAt: Date | null; endAt: Date | null };

/** A span of time in epoch ms, [from, until); the ends may be infinite. */
export type Segment = { from: number; until: number };

/**
 * Whether `at` (epoch ms) lies inside the window; a null end is open.
 *
 * @example
 *   isWithinWindow({ startAt: new Date('2026-01-01T00:00:00Z'), endAt: null }, Date.parse('2026-01-02T00:00:00Z')); // true
 */
export function isWithinWindow(window: ScheduleWindow, at: number): boolean {
  return (window.startAt === null || at >= window.startAt.getTime()) && (window.endAt === null || at < window.endAt.getTime());
}

/**
 * The segment containing `at`: from the latest boundary at or before it to the first
 * boundary after it. Every window's membership is constant across the segment.
 *
 * @example
 *   segmentAround([{ startAt: null, endAt: new Date(1000) }], 10); // { from: -Infinity, until: 1000 }
 */
export function segmentAround(windows: readonly ScheduleWindow[], at: number): Segment {
  let from = Number.NEGATIVE_INFINITY;
  let until = Number.POSITIVE_INFINITY;
  for (const window of windows) {
    for (const boundary of [window.startAt, window.endAt]) {
      if (boundary === null) continue;
      const ms = boundary.getTime();
      if (ms <= at) from = Math.max(from, ms);
      else until = Math.min(until, ms);
    }
  }
  return { from, until };
}
