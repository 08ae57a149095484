/**
 * Budget windows (docs/promotions.md "Budgets") in the shop's timezone: a window is named by
 * its first local date — the day itself, the Monday of its ISO week, the first of its month,
 * or `1970-01-01` for `total` (one window forever). Pure.
 */
import type { Budget } from '@gcrs/engine';
import { dateOfDayNumber, dayNumberOf, localDateOf } from '../analytics/calendar.ts';

export type BudgetWindow = Budget['window'];

/** The window key of `total`: every instant is in it. */
export const TOTAL_WINDOW_START = '1970-01-01';

const dayNumber = (date: string): number => {
  const value = dayNumberOf(date);
  if (value === undefined) throw new Error(`Not a calendar date: ${date}`);
  return value;
};

/**
 * The first local date of the window `instant` falls in, in `timeZone`.
 *
 * @example
 *   windowStartOf(new Date('2026-03-05T12:00:00Z'), 'week', 'UTC'); // '2026-03-02' (a Monday)
 *   windowStartOf(new Date('2026-03-01T04:30:00Z'), 'month', 'America/New_York'); // '2026-02-01'
 */
export function windowStartOf(instant: Date, window: BudgetWindow, timeZone: string): string {
  if (window === 'total') return TOTAL_WINDOW_START;
  const local = localDateOf(instant, timeZone);
  if (window === 'day') return local;
  if (window === 'month') return `${local.slice(0, 8)}01`;
  const days = dayNumber(local);
  // 1970-01-01 was a Thursday: ISO weekday index (Monday 0) is (days + 3) mod 7.
  return dateOfDayNumber(days - (((days % 7) + 7 + 3) % 7));
}

/**
 * The first local date of the window after the one starting at `windowStart`; undefined for `total`.
 *
 * @example
 *   nextWindowStart('2026-12-01', 'month'); // '2027-01-01'
 */
export function nextWindowStart(windowStart: string, window: BudgetWindow): string | undefined {
  if (window === 'total') return undefined;
  if (window === 'day') return dateOfDayNumber(dayNumber(windowStart) + 1);
  if (window === 'week') return dateOfDayNumber(dayNumber(windowStart) + 7);
  const year = Number(windowStart.slice(0, 4));
  const month = Number(windowStart.slice(5, 7));
  return month === 12 ? `${String(year + 1).padStart(4, '0')}-01-01` : `${windowStart.slice(0, 5)}${String(month + 1).padStart(2, '0')}-01`;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The local wall-clock time of `ms` in `timeZone`, read as if it were UTC (epoch ms). */
function wallClock(ms: number, timeZone: string): number {
  let format = clocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clocks.set(timeZone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(new Date(ms))) part[type] = Number(value);
  return Date.UTC(part.year ?? 1970, (part.month ?? 1) - 1, part.day ?? 1, part.hour ?? 0, part.minute ?? 0, part.second ?? 0);
}

/**
 * The instant (epoch ms) the local date `date` begins in `timeZone`: its local midnight, or,
 * where a DST change skips midnight, the first instant of that date.
 *
 * @example
 *   startOfLocalDate('2026-03-02', 'Europe/Paris'); // Date.parse('2026-03-01T23:00:00Z')
 */
export function startOfLocalDate(date: string, timeZone: string): number {
  const naive = dayNumber(date) * 86_400_000;
  let guess = naive;
  // Two corrections settle on the zone's offset at that midnight (the offset may differ from
  // the one at the naive guess across a DST change).
  for (let round = 0; round < 2; round += 1) guess = naive - (wallClock(guess, timeZone) - guess);
  // A zone that skips local midnight: step forward to the first instant of the date.
  while (localDateOf(new Date(guess), timeZone) < date) guess += 15 * 60_000;
  return guess;
}

/**
 * The instant the window after `instant`'s begins (epoch ms); Infinity for `total`.
 *
 * @example
 *   nextWindowBoundary(new Date('2026-03-05T12:00:00Z'), 'day', 'UTC'); // Date.parse('2026-03-06T00:00:00Z')
 */
export function nextWindowBoundary(instant: Date, window: BudgetWindow, timeZone: string): number {
  const next = nextWindowStart(windowStartOf(instant, window, timeZone), window);
  return next === undefined ? Number.POSITIVE_INFINITY : startOfLocalDate(next, timeZone);
}
