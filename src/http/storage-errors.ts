/**
 * The second line of defence behind the request schemas: values PostgreSQL refuses as data
 * (not as a fault of the service) are the caller's 400, never a 500. Drizzle wraps the driver's
 * error, so the SQLSTATE is looked for along the `cause` chain (db/sql-state.ts).
 */
import { TEXT_ISSUE } from '@gcrs/engine';
import { sqlStateOf } from '../db/sql-state.ts';

/** SQLSTATE class 22 ("data exception") codes that only bad input can cause, with what to tell the caller. */
const REFUSED_INPUT: Record<string, string> = {
  '22021': TEXT_ISSUE, // character_not_in_repertoire: NUL or invalid UTF-8 in text
  '22P05': TEXT_ISSUE, // untranslatable_character: \u0000 in jsonb
  '22P02': 'A value is not in the format the field takes', // invalid_text_representation
  '22003': 'A number is out of range', // numeric_value_out_of_range
  '22008': 'A date or time is out of range', // datetime_field_overflow
};

/**
 * What to tell a caller whose input the database refused, or undefined when `error` is not
 * such a refusal (then it stays a 500: the service is at fault).
 *
 * @example storageRefusalIssue(errorWithSqlState('22P05')) // TEXT_ISSUE
 */
export function storageRefusalIssue(error: unknown): string | undefined {
  const state = sqlStateOf(error);
  return state === undefined ? undefined : REFUSED_INPUT[state];
}
