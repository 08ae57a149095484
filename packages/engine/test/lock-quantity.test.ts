// Issue 23, defect 3: the gift is protected. `options.lockQuantity` (absent: on for auto-added
// gifts, off for chosen ones) puts `_svc_lock_quantity` on gift lines and makes the planner put
// a changed quantity back; a rule's second gift line is a duplicated claim and goes, locked or not.
import { describe, expect, it } from 'vitest';
import type { CartLine, ConditionNode, RuleOptions } from '../src/index.ts';
import { applyOperations, locksQuantity, planCart, ruleOptionsSchema } from '../src/index.ts';
import { readRuleOptions } from '../src/compile/read-rule-parts.ts';
import { context, giftLine, line } from './support/contexts.ts';
import { payload, rule } from './support/payloads.ts';
import { gid } from './support/trees.ts';

const always: ConditionNode = { type: 'cart.item_count_gte', value: 1 };
const shopper = line({ id: 'l1', price: 6000 });
const twoMugs = { type: 'fixed' as const, gifts: [{ variantId: gid.variant(9001), quantity: 2 }, { variantId: gid.variant(9002), quantity: 1 }] };
const rules = (options: Partial<RuleOptions> = {}) => payload([rule('r1', always, { giftConfig: twoMugs, options })]);
const gift = (id: string, quantity: number, extra: Partial<CartLine> = {}) => giftLine({ id, quantity, ...extra }, 'r1', 'cmp_r1');

describe('options.lockQuantity', () => {
  it('is a boolean, optional, and defaults by how the gift is added', () => {
    expect(ruleOptionsSchema.parse({ lockQuantity: false }).lockQuantity).toBe(false);
    expect(ruleOptionsSchema.parse({}).lockQuantity).toBeUndefined();
    expect(ruleOptionsSchema.safeParse({ lockQuantity: 'yes' }).error?.issues[0]?.path).toEqual(['lockQuantity']);
    expect(readRuleOptions({ lockQuantity: 'yes' })).toBeUndefined();
    expect(readRuleOptions({ lockQuantity: true })?.lockQuantity).toBe(true);
    expect([locksQuantity({}), locksQuantity({ actionType: 'auto_add' }), locksQuantity({ actionType: 'customer_choice' })]).toEqual([true, true, false]);
    expect([locksQuantity({ actionType: 'auto_add', lockQuantity: false }), locksQuantity({ actionType: 'customer_choice', lockQuantity: true })]).toEqual([false, true]);
  });

  it.each([
    ['an auto-add, by default', {}, 'true'],
    ['an auto-add, turned off', { lockQuantity: false }, undefined],
    ['a choice, by default', { actionType: 'customer_choice' as const }, undefined],
    ['a choice, turned on', { actionType: 'customer_choice' as const, lockQuantity: true }, 'true'],
  ])('puts _svc_lock_quantity on the gift line of %s', (_name, options, expected) => {
    const [operation] = planCart(rules(options), context([shopper])).operations;
    const attributes = operation?.type === 'add' || operation?.type === 'choose' ? operation.attributes : {};
    expect(attributes._svc_lock_quantity).toBe(expected);
    expect(attributes._svc_rule_id).toBe('r1');
  });
});

describe('planCart protects the gift line', () => {
  it('puts a locked line whose quantity the shopper changed back to the gift quantity, up or down', () => {
    for (const quantity of [1, 3, 40]) {
      expect(planCart(rules(), context([shopper, gift('g1', quantity)])).operations).toEqual([{ type: 'update', lineId: 'g1', ruleId: 'r1', quantity: 2 }]);
    }
    expect(planCart(rules(), context([shopper, gift('g1', 2)])).operations).toEqual([]);
    // A chosen gift of the same rule (the second variant, quantity 1), locked on purpose.
    const chosen = gift('g1', 2, { variantId: gid.variant(9002) });
    expect(planCart(rules({ actionType: 'customer_choice', lockQuantity: true }), context([shopper, chosen])).operations).toEqual([
      { type: 'update', lineId: 'g1', ruleId: 'r1', quantity: 1 },
    ]);
  });

  it('leaves the quantity alone when the rule does not lock it, or the line holds a variant the rule does not give', () => {
    expect(planCart(rules({ lockQuantity: false }), context([shopper, gift('g1', 5)])).operations).toEqual([]);
    expect(planCart(rules({ actionType: 'customer_choice' }), context([shopper, gift('g1', 5)])).operations).toEqual([]);
    expect(planCart(rules(), context([shopper, gift('g1', 5, { variantId: gid.variant(77) })])).operations).toEqual([]);
  });

  it('decides by the rule, not by the line: the attribute alone locks nothing', () => {
    const claimsLocked = gift('g1', 4, { attributes: { _svc_lock_quantity: 'true' } });
    expect(planCart(rules({ lockQuantity: false }), context([shopper, claimsLocked])).operations).toEqual([]);
  });

  it('removes every gift line of a rule after its first (a duplicated claim), locked or not, in the first line\'s favour', () => {
    const lines = [gift('g1', 2), shopper, gift('g2', 2), gift('g3', 1, { variantId: gid.variant(9002) })];
    const removes = [
      { type: 'remove', lineId: 'g2', ruleId: 'r1' },
      { type: 'remove', lineId: 'g3', ruleId: 'r1' },
    ];
    expect(planCart(rules(), context(lines)).operations).toEqual(removes);
    expect(planCart(rules({ lockQuantity: false }), context(lines)).operations).toEqual(removes);
    // The kept line is locked like any other: merged means one line at the gift quantity.
    const raisedFirst = [gift('g1', 3), shopper, gift('g2', 2)];
    expect(planCart(rules(), context(raisedFirst)).operations).toEqual([
      { type: 'remove', lineId: 'g2', ruleId: 'r1' },
      { type: 'update', lineId: 'g1', ruleId: 'r1', quantity: 2 },
    ]);
    // Lines of two rules are not duplicates of each other.
    const two = payload([rule('r1', always, { giftConfig: twoMugs }), rule('r2', always, { giftConfig: twoMugs })]);
    expect(planCart(two, context([shopper, gift('g1', 2), giftLine({ id: 'g2', quantity: 2 }, 'r2', 'cmp_r2')])).operations).toEqual([]);
  });

  it('removes every line of a rule that stopped giving, duplicates included', () => {
    const never = payload([rule('r1', { type: 'cart.item_count_gte', value: 99 }, { giftConfig: twoMugs })]);
    expect(planCart(never, context([shopper, gift('g1', 3), gift('g2', 2)])).operations.map((op) => op.type === 'remove' && op.lineId)).toEqual(['g1', 'g2']);
  });

  it('applyOperations sets an updated line\'s quantity, and planning again asks nothing', () => {
    const start = context([shopper, gift('g1', 5), gift('g2', 2)]);
    const plan = planCart(rules(), start);
    const cart = applyOperations(start.cart, plan.operations);
    expect(cart.lines.map((l) => [l.id, l.quantity])).toEqual([['l1', 1], ['g1', 2]]);
    expect(start.cart.lines[1]?.quantity).toBe(5);
    expect(planCart(rules(), { ...start, cart }).operations).toEqual([]);
  });
});
