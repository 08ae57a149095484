/**
 * The shape of a platform webhook topic's handler. Its own module: the features that own topics
 * (compliance/, give-backs/) import it, and topics.ts imports their tables, so the table must
 * not be where the shape lives.
 */
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AppContext } from '../context.ts';
import type { ShopRecord } from '../shops/store.ts';

export type Delivery = { shop: ShopRecord; topic: string; webhookId: string; payload: unknown; log: Logger };

/** What a handler may say beside `duplicate` (give-backs/topics.ts: an order never recorded, what was given back). */
export type TopicOutcome = { duplicate: boolean; ignored?: 'unknown_order'; givenBack?: Record<string, number> };

/** Runs a handler; resolves to `duplicate`, or to an outcome that says more. */
export type TopicHandler = (ctx: AppContext, delivery: Delivery) => Promise<boolean | TopicOutcome>;
