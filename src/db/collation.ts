/**
 * Ids are time-ordered base62 (`0-9A-Za-z`, ASCII ascending), so byte order is creation
 * order. PostgreSQL's default collation may be a locale's, which folds case and would sort
 * `…Z…` after `…a…` differently from PGlite (C collation): order ids byte-wise on every store.
 */
import { sql } from 'drizzle-orm';
import type { AnyColumn, SQL } from 'drizzle-orm';

/**
 * The column compared byte by byte, for ORDER BY.
 *
 * @example
 *   db.select().from(campaigns).orderBy(asc(campaigns.createdAt), asc(bytewise(campaigns.id)));
 */
export const bytewise = (column: AnyColumn): SQL => sql`${column} collate "C"`;
