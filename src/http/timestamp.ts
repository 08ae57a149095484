/**
 * SPEC `<timestamp>` as requests carry it: ISO 8601 with a zone, parsed to a Date, and inside
 * the range the service can store and give back exactly (issue 9 item 6).
 *
 * Why a range: z.iso.datetime takes any four-digit year and any offset, so
 * `0000-01-01T00:00:00Z` and `9999-12-31T23:00:00-05:00` (year 10000 in UTC) passed validation
 * and failed in PostgreSQL as 500s, and `0001-01-01T00:00:00Z` came back as 2001 from the
 * driver. Nothing the service schedules, counts or simulates happens before the Unix epoch, so
 * the range is 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, judged in UTC after the
 * offset is applied.
 */
import { z } from 'zod';

export const MIN_TIMESTAMP = new Date('1970-01-01T00:00:00.000Z');
export const MAX_TIMESTAMP = new Date('9999-12-31T23:59:59.999Z');

const RANGE_MESSAGE = `Expected a timestamp from ${MIN_TIMESTAMP.toISOString()} to ${MAX_TIMESTAMP.toISOString()}`;

/**
 * A request timestamp → Date, refused (400 naming its path) outside the storable range.
 *
 * @example
 *   timestampInputSchema.parse('2026-01-31T10:00:00+01:00'); // Date 2026-01-31T09:00:00.000Z
 *   timestampInputSchema.safeParse('0000-01-01T00:00:00Z').success; // false
 */
export const timestampInputSchema = z.iso
  .datetime({ offset: true, error: 'Expected an ISO 8601 timestamp such as 2026-01-31T00:00:00.000Z' })
  .transform((text) => new Date(text))
  .refine((date) => date >= MIN_TIMESTAMP && date <= MAX_TIMESTAMP, RANGE_MESSAGE);

/**
 * The same check for a timestamp kept as the text it was sent as (stored in jsonb verbatim).
 *
 * @example
 *   timestampTextSchema.parse('2026-01-31T10:00:00+01:00'); // '2026-01-31T10:00:00+01:00'
 */
export const timestampTextSchema = z.iso
  .datetime({ offset: true, error: 'Expected an ISO 8601 timestamp such as 2026-01-31T00:00:00.000Z' })
  .refine((text) => {
    const date = new Date(text);
    return date >= MIN_TIMESTAMP && date <= MAX_TIMESTAMP;
  }, RANGE_MESSAGE);
