/**
 * The types of the database handle: the Drizzle database over the whole schema, a transaction,
 * and either of them (what store functions take).
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; store functions that must share a transaction take this. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either the database or a transaction in progress. */
export type Queryable = Database | Tx;
