import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWithinWindow, segmentAround } from '../../src/rules/schedule-window.ts';
import type { ScheduleWindow } from '../../src/rules/schedule-window.ts';

const instant = fc.integer({ min: 0, max: 1_000 });
const windowArb: fc.Arbitrary<ScheduleWindow> = fc
  .record({ start: fc.option(instant), end: fc.option(instant) })
  .map(({ start, end }) => ({ startAt: start === null ? null : new Date(start), endAt: end === null ? null : new Date(end) }));

describe('schedule windows', () => {
  it('are half-open: in at startAt, out at endAt', () => {
    const window = { startAt: new Date(100), endAt: new Date(200) };
    expect(isWithinWindow(window, 99)).toBe(false);
    expect(isWithinWindow(window, 100)).toBe(true);
    expect(isWithinWindow(window, 199)).toBe(true);
    expect(isWithinWindow(window, 200)).toBe(false);
    expect(isWithinWindow({ startAt: null, endAt: null }, 0)).toBe(true);
  });

  it('cut segments over which no window changes membership', () => {
    fc.assert(
      fc.property(fc.array(windowArb, { maxLength: 6 }), instant, instant, (windows, at, probe) => {
        const segment = segmentAround(windows, at);
        expect(segment.from).toBeLessThanOrEqual(at);
        expect(segment.until).toBeGreaterThan(at);
        if (probe >= segment.from && probe < segment.until) {
          for (const window of windows) expect(isWithinWindow(window, probe)).toBe(isWithinWindow(window, at));
        }
      }),
    );
  });

  it('end at the next boundary of any window', () => {
    const windows = [
      { startAt: new Date(100), endAt: new Date(300) },
      { startAt: null, endAt: new Date(200) },
    ];
    expect(segmentAround(windows, 150)).toEqual({ from: 100, until: 200 });
    expect(segmentAround(windows, 300)).toEqual({ from: 300, until: Number.POSITIVE_INFINITY });
    expect(segmentAround([], 5)).toEqual({ from: Number.NEGATIVE_INFINITY, until: Number.POSITIVE_INFINITY });
  });
});
