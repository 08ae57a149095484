/**
 * Gift budgets in the rules payload (src/budgets/spent.ts through buildRulesPayload), as laws
 * over random rules, campaign budgets, counters, time zones and instants:
 * - raising a budget never removes a gift (the payload's rules only grow);
 * - a rule without a budget, in a campaign without one, is never affected by any counter;
 * - a rule is offered exactly when its own and its campaign's counters are below maxGifts;
 * - the payload is the same at every instant of the segment it claims to hold for.
 * Plus the window arithmetic on fixed dates (DST, ISO weeks, month ends).
 */
import type { Budget } from '@gcrs/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexUsage } from '../../src/budgets/spent.ts';
import type { BudgetUsageRow } from '../../src/budgets/spent.ts';
import { nextWindowBoundary, startOfLocalDate, windowStartOf } from '../../src/budgets/window.ts';
import type { RuleRecord } from '../../src/campaigns/store.ts';
import { buildRulesPayload } from '../../src/rules/payload.ts';
import type { RulesSource } from '../../src/rules/payload.ts';
import { widgetSettingsOf } from '../../src/widgets/store.ts';

const ZONES = ['UTC', 'America/New_York', 'Europe/Paris', 'Asia/Kolkata', 'Pacific/Auckland', 'America/Santiago'];
const WINDOWS = ['day', 'week', 'month', 'total'] as const;

const budgetArb = fc.record({ maxGifts: fc.integer({ min: 1, max: 20 }), window: fc.constantFrom(...WINDOWS) });
const maybeBudget = fc.option(budgetArb, { nil: undefined });

/** 1..3 campaigns of 1..3 rules, each campaign and rule with or without a budget, and a counter per budget. */
const scenario = fc.record({
  campaigns: fc.array(fc.record({ budget: maybeBudget, rules: fc.array(maybeBudget, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }),
  used: fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 12, maxLength: 12 }),
  timeZone: fc.constantFrom(...ZONES),
  // 2020..2030
  at: fc.integer({ min: 1_577_836_800_000, max: 1_893_456_000_000 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const ruleRecord = (id: string, campaignId: string, budget: Budget | undefined): RuleRecord => ({
  id,
  campaignId,
  name: id,
  enabled: true,
  conditionTree: { type: 'cart.subtotal_gte', value: 1 },
  giftConfig: { type: 'fixed', gifts: [{ variantId: 'gid://shopify/ProductVariant/1', quantity: 1 }], fallbackOnOOS: false },
  options: {
    actionType: 'auto_add',
    discountMethod: 'automatic',
    discountType: 'percentage',
    discountValue: 100,
    discountTitle: 'Gift',
    ...(budget ? { budget } : {}),
  },
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** The source of a scenario; counters sit in the windows holding `at`. */
function sourceOf(s: Scenario): RulesSource {
  const rows: BudgetUsageRow[] = [];
  let next = 0;
  const counterOf = (scope: 'rule' | 'campaign', scopeId: string, budget: Budget | undefined) => {
    if (!budget) return;
    rows.push({ scope, scopeId, windowStart: windowStartOf(new Date(s.at), budget.window, s.timeZone), used: s.used[next % s.used.length] ?? 0 });
    next += 1;
  };
  const campaigns = s.campaigns.map((c, i) => ({ id: `cmp_${i}`, budget: c.budget ?? null, startAt: null, endAt: null }));
  const rules = s.campaigns.flatMap((c, i) => c.rules.map((budget, j) => ruleRecord(`rul_${i}_${j}`, `cmp_${i}`, budget)));
  for (const campaign of campaigns) counterOf('campaign', campaign.id, campaign.budget ?? undefined);
  for (const rule of rules) counterOf('rule', rule.id, rule.options.budget);
  return {
    shop: { id: 'shp_1', plan: 'scale', currency: 'USD', timezone: s.timeZone, settings: {}, rulesVersion: 1, widgets: widgetSettingsOf(null, 0) },
    campaigns,
    rules,
    experiments: [],
    collections: [],
    soldOutGifts: new Set(),
    giftTitles: new Map(),
    giftPrices: new Map(),
    budgetUsage: indexUsage(rows),
  };
}

const offered = (source: RulesSource, at: number) => buildRulesPayload(source, at).payload.rules.map((rule) => rule.id);
const raise = (budget: Budget | undefined, by: number) => (budget ? { ...budget, maxGifts: budget.maxGifts + by } : undefined);

describe('budget laws', () => {
  it('raising any budgets never removes a rule from the payload', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 30 }), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), (s, by, which) => {
        let pick = 0;
        const chosen = () => which[pick++ % which.length] === true;
        const raised = {
          ...s,
          campaigns: s.campaigns.map((c) => ({ budget: chosen() ? raise(c.budget, by) : c.budget, rules: c.rules.map((b) => (chosen() ? raise(b, by) : b)) })),
        };
        const before = offered(sourceOf(s), s.at);
        const after = offered(sourceOf(raised), s.at);
        expect(after).toEqual(expect.arrayContaining(before));
      }),
    );
  });

  it('a rule without a budget in a campaign without one is offered whatever the counters', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const source = sourceOf(s);
        const ids = offered(source, s.at);
        s.campaigns.forEach((c, i) =>
          c.rules.forEach((budget, j) => {
            if (!budget && !c.budget) expect(ids).toContain(`rul_${i}_${j}`);
          }),
        );
      }),
    );
  });

  it('a rule is offered exactly when its own and its campaign counters are below maxGifts', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const source = sourceOf(s);
        const ids = new Set(offered(source, s.at));
        const usedOf = (scope: string, id: string, budget: Budget) =>
          source.budgetUsage.get(`${scope}\u0000${id}\u0000${windowStartOf(new Date(s.at), budget.window, s.timeZone)}`) ?? 0;
        for (const rule of source.rules) {
          const campaign = source.campaigns.find((c) => c.id === rule.campaignId);
          const ruleOpen = !rule.options.budget || usedOf('rule', rule.id, rule.options.budget) < rule.options.budget.maxGifts;
          const campaignOpen = !campaign?.budget || usedOf('campaign', campaign.id, campaign.budget) < campaign.budget.maxGifts;
          expect(ids.has(rule.id)).toBe(ruleOpen && campaignOpen);
        }
      }),
    );
  });

  it('the payload holds over its whole segment, and a spent windowed budget ends the segment at its window end', () => {
    fc.assert(
      fc.property(scenario, fc.double({ min: 0, max: 1, noNaN: true }), (s, fraction) => {
        const source = sourceOf(s);
        const { payload, segment } = buildRulesPayload(source, s.at);
        expect(segment.from).toBeLessThanOrEqual(s.at);
        expect(segment.until).toBeGreaterThan(s.at);
        // Any instant of the segment (bounded to 40 days either way) gives the same rules.
        const from = Math.max(segment.from, s.at - 40 * 86_400_000);
        const until = Math.min(segment.until, s.at + 40 * 86_400_000);
        const inside = Math.min(until - 1, Math.floor(from + (until - from) * fraction));
        expect(offered(source, inside)).toEqual(payload.rules.map((rule) => rule.id));
        // At the segment's end a window turns: its counters start empty, so rules only come back.
        if (Number.isFinite(segment.until)) expect(offered(source, segment.until)).toEqual(expect.arrayContaining(offered(source, s.at)));
      }),
    );
  });
});

describe('budget windows', () => {
  it.each([
    ['2026-03-05T12:00:00Z', 'day', 'UTC', '2026-03-05', '2026-03-06T00:00:00.000Z'],
    ['2026-03-05T12:00:00Z', 'week', 'UTC', '2026-03-02', '2026-03-09T00:00:00.000Z'],
    ['2026-03-01T04:30:00Z', 'month', 'America/New_York', '2026-02-01', '2026-03-01T05:00:00.000Z'],
    // New York springs forward on 2026-03-08: that day is 23 hours long.
    ['2026-03-08T12:00:00Z', 'day', 'America/New_York', '2026-03-08', '2026-03-09T04:00:00.000Z'],
    // An ISO week across a year end starts on Monday 2025-12-29.
    ['2026-01-01T12:00:00Z', 'week', 'Europe/Paris', '2025-12-29', '2026-01-04T23:00:00.000Z'],
    ['2026-12-31T23:30:00Z', 'month', 'Pacific/Auckland', '2027-01-01', '2027-01-31T11:00:00.000Z'],
  ] as const)('%s %s in %s starts %s, next at %s', (instant, window, zone, start, next) => {
    expect(windowStartOf(new Date(instant), window, zone)).toBe(start);
    expect(new Date(nextWindowBoundary(new Date(instant), window, zone)).toISOString()).toBe(next);
  });

  it('total is one window forever', () => {
    expect(windowStartOf(new Date('2030-06-01T00:00:00Z'), 'total', 'Asia/Kolkata')).toBe('1970-01-01');
    expect(nextWindowBoundary(new Date('2030-06-01T00:00:00Z'), 'total', 'Asia/Kolkata')).toBe(Number.POSITIVE_INFINITY);
  });

  it('a window starts at the first instant of its local date, also where DST skips midnight (Santiago, 2026-09-06)', () => {
    const start = startOfLocalDate('2026-09-06', 'America/Santiago');
    expect(windowStartOf(new Date(start), 'day', 'America/Santiago')).toBe('2026-09-06');
    expect(windowStartOf(new Date(start - 1), 'day', 'America/Santiago')).toBe('2026-09-05');
  });

  it('every instant lies in its window: window start ≤ instant < next boundary', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_577_836_800_000, max: 1_893_456_000_000 }), fc.constantFrom(...ZONES), fc.constantFrom(...WINDOWS), (at, zone, window) => {
        const start = windowStartOf(new Date(at), window, zone);
        if (window !== 'total') expect(startOfLocalDate(start, zone)).toBeLessThanOrEqual(at);
        const next = nextWindowBoundary(new Date(at), window, zone);
        expect(next).toBeGreaterThan(at);
        if (Number.isFinite(next)) expect(windowStartOf(new Date(next), window, zone)).not.toBe(start);
      }),
    );
  });
});
