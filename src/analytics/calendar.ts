/**
 * Calendar dates (`YYYY-MM-DD`) as analytics and order intake use them: validated by plain
 * arithmetic (no Date parsing quirks such as 2026-02-30 rolling over to March), counted as
 * day numbers, and derived from an instant in a shop's IANA time zone.
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil):
 * exact for every year, with no Date object and no time zone involved.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function civilFromDays(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The day number (days since 1970-01-01) of a `YYYY-MM-DD` text, or undefined when the text
 * is not a real calendar date.
 *
 * @example
 *   dayNumberOf('1970-01-02'); // 1
 *   dayNumberOf('2026-02-30'); // undefined
 */
export function dayNumberOf(text: string): number | undefined {
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return daysFromCivil(year, month, day);
}

/**
 * The `YYYY-MM-DD` text of a day number.
 *
 * @example
 *   dateOfDayNumber(0); // '1970-01-01'
 */
export function dateOfDayNumber(dayNumber: number): string {
  return civilFromDays(dayNumber);
}

/**
 * Every date from `from` to `to`, both included, in order (empty when from > to).
 *
 * @example
 *   datesBetween('2026-02-27', '2026-03-01'); // ['2026-02-27', '2026-02-28', '2026-03-01']
 */
export function datesBetween(from: string, to: string): string[] {
  const first = dayNumberOf(from);
  const last = dayNumberOf(to);
  if (first === undefined || last === undefined) return [];
  const dates: string[] = [];
  for (let day = first; day <= last; day += 1) dates.push(civilFromDays(day));
  return dates;
}

// Building a DateTimeFormat costs far more than using one; a shop's zone is reused for every order.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The calendar date of `instant` in `timeZone` (SPEC "an order counts on the day it
 * completed in the shop's timezone"): DST days come out right because the zone's own rules
 * decide the local date. Meant for instants of our era (years 1–9999).
 *
 * @example
 *   localDateOf(new Date('2026-03-01T04:30:00Z'), 'America/New_York'); // '2026-02-28'
 */
export function localDateOf(instant: Date, timeZone: string): string {
  let year = '';
  let month = '';
  let day = '';
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return `${year.padStart(4, '0')}-${month}-${day}`;
}
