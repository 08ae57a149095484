/**
 * One rule in the campaign editor: its name, enabled, condition tree (ConditionTreeBuilder), gifts
 * (RuleGifts) and options (the discount title per language, stacking, the limit per customer, the
 * quantity lock, the budget).
 */
import { BlockStack, Button, Card, Checkbox, FormLayout, InlineGrid, InlineStack, Select, Text } from '@shopify/polaris';
import type { ConditionNode } from '@gcrs/engine';
import { useContext } from 'react';
import { BudgetFields } from './BudgetFields.tsx';
import type { RuleBody, Usage } from './campaign-body.ts';
import { ConditionNodeEditor, LockedLeaves } from './ConditionTreeBuilder.tsx';
import { MoneyField, NumberField, PlainTextField as Field, ShopCurrency } from './ConditionFields.tsx';
import type { Plan } from './ConditionTreeBuilder.tsx';
import { RuleGifts } from './RuleGifts.tsx';
import { TitleTranslations } from './TitleTranslations.tsx';

export function RuleEditor({ rule, index, plan, usage, onChange, onRemove }: { rule: RuleBody; index: number; plan: Plan; usage: Usage | undefined; onChange: (rule: RuleBody) => void; onRemove: () => void }) {
  const at = (...rest: (string | number)[]) => ['rules', index, ...rest];
  const label = `Rule ${index + 1}`;
  const currency = useContext(ShopCurrency);
  const options = rule.options;
  const setOptions = (patch: Partial<RuleBody['options']>) => {
    const next: Record<string, unknown> = { ...options, ...patch };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    onChange({ ...rule, options: next as RuleBody['options'] });
  };
  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            {label}: {rule.name || 'unnamed'}
          </Text>
          <Button tone="critical" onClick={onRemove} accessibilityLabel={`Remove ${label}`}>
            Remove rule
          </Button>
        </InlineStack>
        <FormLayout>
          <Field label={`${label} name`} value={rule.name} path={at('name')} onChange={(name) => onChange({ ...rule, name })} />
          <Checkbox label={`${label} is enabled`} checked={rule.enabled} onChange={(enabled) => onChange({ ...rule, enabled })} />
        </FormLayout>

        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Conditions
          </Text>
          <LockedLeaves plan={plan} />
          <ConditionNodeEditor
            node={rule.conditionTree as ConditionNode}
            onChange={(conditionTree) => onChange({ ...rule, conditionTree: conditionTree as RuleBody['conditionTree'] })}
            plan={plan}
            path={at('conditionTree')}
            name={`${label} condition`}
            depth={0}
          />
        </BlockStack>

        <RuleGifts rule={rule} label={label} at={at} onChange={onChange} />


        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Options
          </Text>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="200">
            <Select
              label={`${label}: how the gift is added`}
              value={options.actionType ?? 'auto_add'}
              options={[
                { label: 'Added automatically', value: 'auto_add' },
                { label: "Shopper's choice", value: 'customer_choice' },
              ]}
              onChange={(actionType) => setOptions({ actionType: actionType as 'auto_add' | 'customer_choice' })}
            />
            <Select label={`${label}: discount method`} value={options.discountMethod ?? 'automatic'} options={[{ label: 'Automatic discount', value: 'automatic' }]} onChange={() => setOptions({ discountMethod: 'automatic' })} />
            <Select
              label={`${label}: discount type`}
              value={options.discountType ?? 'percentage'}
              options={[
                { label: 'Percentage', value: 'percentage' },
                { label: `Fixed amount (${currency})`, value: 'fixed_amount' },
              ]}
              onChange={(discountType) => setOptions({ discountType: discountType as 'percentage' | 'fixed_amount' })}
            />
            {options.discountType === 'fixed_amount' ? (
              <MoneyField label={`${label}: discount value`} currency={currency} value={options.discountValue} path={at('options', 'discountValue')} helpText={`Off each gift, in ${currency}`} onChange={(discountValue) => setOptions({ discountValue: discountValue as number })} />
            ) : (
              <NumberField
                label={`${label}: discount value`}
                value={options.discountValue}
                path={at('options', 'discountValue')}
                helpText="0 to 100; 100 makes the gift free"
                onChange={(discountValue) => setOptions({ discountValue: discountValue as number })}
              />
            )}
            <Field label={`${label}: discount title`} value={options.discountTitle ?? ''} path={at('options', 'discountTitle')} onChange={(discountTitle) => setOptions({ discountTitle })} />
            <NumberField
              label={`${label}: priority`}
              value={options.priority}
              path={at('options', 'priority')}
              helpText="Optional. Higher goes first when rules stack"
              onChange={(priority) => setOptions({ priority: priority === '' ? undefined : (priority as number) })}
            />
            <NumberField
              label={`${label}: limit per customer`}
              value={options.maxPerCustomer}
              path={at('options', 'maxPerCustomer')}
              helpText="Optional. Orders per customer that may carry this gift; signed-in customers only"
              onChange={(maxPerCustomer) => setOptions({ maxPerCustomer: maxPerCustomer === '' ? undefined : (maxPerCustomer as number) })}
            />
          </InlineGrid>
          <TitleTranslations
            label={label}
            title={options.discountTitle ?? 'Free gift'}
            translations={options.discountTitleTranslations}
            path={at('options', 'discountTitleTranslations')}
            onChange={(discountTitleTranslations) => setOptions({ discountTitleTranslations })}
          />
          <Checkbox
            label={`${label} is exclusive: when it gives, the rules after it give nothing`}
            checked={options.exclusive ?? false}
            onChange={(exclusive) => setOptions({ exclusive: exclusive ? true : undefined })}
          />
          <Checkbox
            label={`${label}: lock the gift's quantity`}
            helpText="When a shopper changes how many of the gift are in the cart, the storefront puts it back to the gift's quantity. On by default for gifts added automatically"
            checked={options.lockQuantity ?? options.actionType !== 'customer_choice'}
            onChange={(lockQuantity) => setOptions({ lockQuantity })}
          />
          <BudgetFields label={label} budget={options.budget} usage={usage} path={at('options', 'budget')} onChange={(budget) => setOptions({ budget })} />
        </BlockStack>
      </BlockStack>
    </Card>
  );
}
