/** Column helpers every table file shares. */
import { timestamp } from 'drizzle-orm/pg-core';

/** A timestamp with time zone, in milliseconds (what JavaScript's Date holds). */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
export const createdAt = () => ts('created_at').notNull().defaultNow();
