/**
 * What an experiment takes away (docs/promotions.md "Experiments"). A visitor gets only the rule
 * of the variant assigned to them, so when the compared rules have different conditions, a
 * shopper who qualifies for one rule but is assigned to another gets no gift from the campaign;
 * a variant whose rule is disabled gives nothing at all (a holdout). Both are worth doing only on
 * purpose: the server answers them with the start, and the admin says them before it.
 */

export type AudienceWarning = {
  /** `different_audiences`: the variants' rules have different condition trees; `holdout`: a variant's rule is disabled. */
  code: 'different_audiences' | 'holdout';
  message: string;
  /** The rules concerned, in the variants' order. */
  ruleIds: string[];
};

type VariantOf = { name: string; ruleId: string };
type RuleOf = { id: string; name: string; enabled: boolean; conditionTree: unknown };

/** JSON with object keys sorted at every depth: equal trees give equal text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const quoted = (names: string[]) =>
  names.length <= 1 ? `“${names[0] ?? ''}”` : `${names.slice(0, -1).map((name) => `“${name}”`).join(', ')} and “${names.at(-1) ?? ''}”`;

/**
 * The warnings of an experiment between `variants` over the campaign's `rules` (variants naming
 * an unknown rule are left out: the start answers them with a 400).
 *
 * @example
 *   experimentAudienceWarnings(
 *     [{ name: 'A', ruleId: 'rul_all' }, { name: 'B', ruleId: 'rul_vip' }],
 *     [{ id: 'rul_all', name: 'Everyone', enabled: true, conditionTree: all }, { id: 'rul_vip', name: 'VIP', enabled: true, conditionTree: vip }],
 *   ); // [{ code: 'different_audiences', ruleIds: ['rul_all', 'rul_vip'], message: 'The rules “Everyone” and “VIP” …' }]
 */
export function experimentAudienceWarnings(variants: readonly VariantOf[], rules: readonly RuleOf[]): AudienceWarning[] {
  const byId = new Map(rules.map((rule) => [rule.id, rule]));
  const chosen = variants.flatMap((variant) => {
    const rule = byId.get(variant.ruleId);
    return rule ? [{ variant, rule }] : [];
  });
  const warnings: AudienceWarning[] = [];
  const offering = chosen.filter(({ rule }) => rule.enabled);
  const trees = new Set(offering.map(({ rule }) => canonical(rule.conditionTree)));
  if (trees.size > 1) {
    const names = offering.map(({ rule }) => rule.name);
    warnings.push({
      code: 'different_audiences',
      ruleIds: offering.map(({ rule }) => rule.id),
      message:
        `The rules ${quoted(names)} have different conditions, so they target different shoppers. ` +
        'Each visitor gets only the rule of the variant assigned to them: a shopper who qualifies for one of these rules ' +
        'but is assigned to another gets no gift from this campaign. Compare rules with the same conditions ' +
        '(for example the same threshold with different gifts) unless that is what you want to measure.',
    });
  }
  for (const { variant, rule } of chosen) {
    if (rule.enabled) continue;
    warnings.push({
      code: 'holdout',
      ruleIds: [rule.id],
      message:
        `Variant “${variant.name}” is a holdout: its rule “${rule.name}” is disabled, so the visitors assigned to it ` +
        'get no gift from this campaign. Keep it only to measure what the gift adds.',
    });
  }
  return warnings;
}
