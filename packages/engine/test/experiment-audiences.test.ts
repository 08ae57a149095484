/** experimentAudienceWarnings: what an experiment's variants take away, in words (issue 23). */
import { describe, expect, it } from 'vitest';
import { experimentAudienceWarnings } from '../src/index.ts';

const over50 = { type: 'cart.subtotal_gte', value: 5000 };
const rules = [
  { id: 'r_all', name: 'Everyone', enabled: true, conditionTree: over50 },
  { id: 'r_same', name: 'Tote', enabled: true, conditionTree: { value: 5000, type: 'cart.subtotal_gte' } },
  { id: 'r_vip', name: 'VIP', enabled: true, conditionTree: { type: 'AND', children: [over50, { type: 'customer.tag_in', value: ['VIP'] }] } },
  { id: 'r_off', name: 'Nothing', enabled: false, conditionTree: { type: 'cart.subtotal_gte', value: 1 } },
];
const variant = (name: string, ruleId: string) => ({ name, ruleId });

describe('experimentAudienceWarnings', () => {
  it('says nothing for rules with the same conditions, whatever their key order', () => {
    expect(experimentAudienceWarnings([variant('A', 'r_all'), variant('B', 'r_same')], rules)).toEqual([]);
  });

  it('names the rules whose conditions differ and says who loses the gift', () => {
    const [warning, ...rest] = experimentAudienceWarnings([variant('A', 'r_all'), variant('B', 'r_same'), variant('C', 'r_vip')], rules);
    expect(rest).toEqual([]);
    expect(warning?.code).toBe('different_audiences');
    expect(warning?.ruleIds).toEqual(['r_all', 'r_same', 'r_vip']);
    expect(warning?.message).toMatch(/^The rules “Everyone”, “Tote” and “VIP” have different conditions/);
    expect(warning?.message).toContain('gets no gift from this campaign');
  });

  it('calls a disabled rule a holdout and leaves it out of the audience comparison', () => {
    expect(experimentAudienceWarnings([variant('A', 'r_all'), variant('Holdout', 'r_off')], rules)).toEqual([
      { code: 'holdout', ruleIds: ['r_off'], message: expect.stringMatching(/^Variant “Holdout” is a holdout: its rule “Nothing” is disabled/) },
    ]);
  });

  it('ignores a variant naming no rule of the list (the start answers that with a 400)', () => {
    expect(experimentAudienceWarnings([variant('A', 'r_all'), variant('B', 'missing')], rules)).toEqual([]);
  });
});
