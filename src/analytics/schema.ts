/** SPEC "GET /analytics" and "Analytics records" shapes. */
import { ruleOptionsSchema, textSchema } from '@gcrs/engine';
import { z } from 'zod';
import { dayNumberOf } from './calendar.ts';

/** SPEC "Limits": Analytics range, at most 90 days (both ends included). */
export const MAX_RANGE_DAYS = 90;

const dateParam = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .refine((text) => dayNumberOf(text) !== undefined, `${name} must be a calendar date in YYYY-MM-DD form`)
    .meta({ description: `YYYY-MM-DD, inclusive, in the shop's timezone`, format: 'date', example: '2026-01-31' });

export const analyticsQuerySchema = z
  .object({
    from: dateParam('from'),
    to: dateParam('to'),
    campaignId: textSchema.trim().min(1).max(64).optional().meta({ description: 'Limits campaignStats to one campaign' }),
  })
  .superRefine((query, ctx) => {
    const from = dayNumberOf(query.from) ?? 0;
    const to = dayNumberOf(query.to) ?? 0;
    if (from > to) ctx.addIssue({ code: 'custom', message: 'from must not be after to', path: ['from'] });
    else if (to - from + 1 > MAX_RANGE_DAYS) {
      ctx.addIssue({ code: 'custom', message: `The range may span at most ${MAX_RANGE_DAYS} days`, path: ['to'] });
    }
  });

export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;

const date = z.string().meta({ example: '2026-01-31' });
const amount = z.number().meta({ description: 'Decimal units of the shop base currency' });

export const dailyTotalSchema = z.object({
  date,
  totalOrders: z.int(),
  totalRevenue: amount,
  ordersWithGifts: z.int(),
  revenueWithGifts: amount,
  ordersWithGiftsRefunded: z.int().meta({
    description: 'Orders with gifts that stopped carrying any (cancelled, or every gift line refunded), counted on the day of that refund; the order itself stays on its own day',
  }),
});

export const campaignStatSchema = z.object({
  date,
  campaignId: z.string(),
  ordersWithGifts: z.int(),
  giftsGiven: z.int(),
  revenueWithGifts: amount,
  giftsRefunded: z.int().meta({ description: "Gift units of the campaign refunded or cancelled on this day (the orders' own days keep giftsGiven)" }),
  ordersWithGiftsRefunded: z.int().meta({ description: 'Orders that stopped carrying a gift of the campaign on this day' }),
});

const count = (description: string) => z.int().meta({ description });

export const ruleStatSchema = z.object({
  campaignId: z.string(),
  ruleId: z.string(),
  actionType: ruleOptionsSchema.unwrap().shape.actionType.unwrap().nullable().meta({ description: "The rule's action type as it is now; null for a rule deleted since" }),
  offersShown: count(
    "The funnel's first step: `choice_shown` events of a `customer_choice` rule, `gift_added` events of an `auto_add` rule (its gift is shown by being added), by the rule's action type when each event was received",
  ),
  choicesShown: count('`choice_shown` events received in the range'),
  choicesSelected: count('`choice_selected` events received in the range'),
  giftsAdded: count('`gift_added` events received in the range'),
  giftsRemoved: count('`gift_removed` events received in the range'),
  ordersWithGifts: count("Orders of the range with a gift line of the rule (once per order), repaired ones included"),
  giftsRepaired: count('Orders of the range whose missing gift of the rule a repair added'),
});

const averageOrderValue = (description: string) => amount.nullable().meta({ description: `${description}; null when there is no such order` });

export const analyticsResponseSchema = z.object({
  dailyTotals: z.array(dailyTotalSchema).meta({ description: 'Every day of the range, zeros included, oldest first' }),
  campaignStats: z.array(campaignStatSchema).meta({ description: 'Days and campaigns with orders or refunds, oldest first' }),
  ruleStats: z.array(ruleStatSchema).meta({
    description: 'The gift funnel (shown → added → ordered) of every rule with events or orders in the range, summed over the range, by campaign then rule id; narrowed by campaignId',
  }),
  summary: z.object({
    totalOrders: z.int(),
    totalGifts: z.int(),
    totalRevenue: amount,
    totalGiftsRefunded: z.int().meta({ description: 'Gift units refunded or cancelled in the range, every campaign' }),
    ordersWithGifts: count('Orders of the range with a gift'),
    revenueWithGifts: amount,
    averageOrderValueWithGifts: averageOrderValue('Revenue with gifts divided by orders with gifts, to the minor unit'),
    averageOrderValueWithoutGifts: averageOrderValue('Revenue of the orders without a gift divided by their number, to the minor unit'),
    totalGiftsRepaired: count('Missing gifts a repair added to orders of the range, every campaign'),
  }),
});

export type AnalyticsResponse = z.output<typeof analyticsResponseSchema>;
