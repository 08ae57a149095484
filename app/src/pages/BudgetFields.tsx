/**
 * A gift budget's fields (the campaign's or a rule's: max gifts per day, week, month or in total)
 * and what the current window used, from the read's `budgetUsage` (docs/promotions.md "Budgets").
 */
import { BlockStack, Checkbox, InlineGrid, Select, Text } from '@shopify/polaris';
import type { Budget, Usage } from './campaign-body.ts';
import { NumberField } from './ConditionFields.tsx';

const WINDOW_OPTIONS = [
  { label: 'In total', value: 'total' },
  { label: 'Per day', value: 'day' },
  { label: 'Per week (from Monday)', value: 'week' },
  { label: 'Per month', value: 'month' },
];
const WINDOW_WORDS: Record<NonNullable<Budget['window']>, string> = { total: 'in total', day: 'today', week: 'this week', month: 'this month' };

/** "Used 12 of 50 this week", and whether the budget is spent; nothing before the first save. */
function usageText(usage: Usage | null | undefined, budget: Budget): string | undefined {
  if (!usage || usage.window !== (budget.window ?? 'total')) return undefined;
  const text = `Used ${usage.used} of ${budget.maxGifts} ${WINDOW_WORDS[budget.window ?? 'total']}`;
  return usage.used >= budget.maxGifts ? `${text}: spent, no gift is offered until ${budget.window === 'total' ? 'the budget is raised' : 'the window ends or the budget is raised'}` : text;
}

/** Max gifts and window of one budget (the campaign's or a rule's); off = no budget. */
export function BudgetFields({ label, budget, usage, path, onChange }: { label: string; budget: Budget | undefined; usage: Usage | null | undefined; path: (string | number)[]; onChange: (budget: Budget | undefined) => void }) {
  const used = budget ? usageText(usage, budget) : undefined;
  return (
    <BlockStack gap="200">
      <Checkbox label={`${label}: limit the gifts given`} checked={budget !== undefined} onChange={(on) => onChange(on ? { maxGifts: 100, window: 'total' } : undefined)} />
      {budget && (
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="200">
          <NumberField label={`${label}: at most gifts`} value={budget.maxGifts} path={[...path, 'maxGifts']} helpText="Gift units, counted when orders complete" onChange={(maxGifts) => onChange({ ...budget, maxGifts: maxGifts as number })} />
          <Select label={`${label}: counted`} value={budget.window ?? 'total'} options={WINDOW_OPTIONS} onChange={(window) => onChange({ ...budget, window: window as NonNullable<Budget['window']> })} />
        </InlineGrid>
      )}
      {used && (
        <Text as="p" tone={usage && usage.used >= (budget?.maxGifts ?? 0) ? 'critical' : 'subdued'}>
          {used}
        </Text>
      )}
    </BlockStack>
  );
}
