/**
 * The visual condition-tree builder: AND / OR / NOT groups and the engine's 17 leaves, each with
 * every field it has (threshold overrides per currency and per market included). Leaves the shop's
 * plan may not use are listed but locked, naming the plan that unlocks them (the engine's plan
 * matrix). Every change is a labelled control or button, so the tree is built by keyboard alone.
 * Fields show the server's error when its `path` names them (ErrorAt).
 */
import { Badge, BlockStack, Box, Button, InlineStack, Select, Text, TextField } from '@shopify/polaris';
import { LEAF_TYPES, LEAF_TYPES_BY_PLAN, PLAN_NAMES, isLeafAllowed, planSchema } from '@gcrs/engine';
import type { ConditionNode, LeafNode, LeafType, Plan } from '@gcrs/engine';
import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { toMajorText, toMinorUnits } from '../words.ts';

export type { Plan };
type Path = readonly (string | number)[];

/** The server's validation error: its `path` (from the request body's root) and text. */
export type FieldError = { path: Path; text: string } | undefined;
export const ErrorContext = createContext<FieldError>(undefined);

/** The error text when the server's `path` is this field or inside it (a list's item). */
export function useErrorAt(path: Path): string | undefined {
  const error = useContext(ErrorContext);
  if (!error) return undefined;
  const key = path.join('.');
  const at = error.path.join('.');
  return at === key || at.startsWith(`${key}.`) ? error.text : undefined;
}

export const LEAF_LABEL: Record<LeafType, string> = {
  'cart.subtotal_gte': 'Cart subtotal is at least',
  'cart.subtotal_lte': 'Cart subtotal is at most',
  'cart.total_gte': 'Cart total is at least',
  'cart.item_count_gte': 'Number of items is at least',
  'line.has_product_id': 'Cart contains product',
  'line.has_variant_id': 'Cart contains variant',
  'line.in_collection': 'Cart contains a product of collection',
  'line.quantity_min': 'Quantity of a product or variant is at least',
  'line.property_equals': 'A line has the property',
  'line.has_selling_plan': 'Subscription lines',
  'customer.tag_in': 'Customer has a tag',
  'customer.is_logged_in': 'Customer is logged in',
  'market.handle_in': 'Market is one of',
  'country.in': 'Country is one of',
  'discount.code_present': 'A discount code is applied',
  'discount.code_not_present': 'No discount code is applied',
  'discount.code_equals': 'The discount code is',
};

const GROUP_LABEL = { AND: 'All of (AND)', OR: 'Any of (OR)', NOT: 'Not (NOT)' } as const;

/** The cheapest plan whose matrix has the leaf. */
export function unlockingPlan(type: LeafType): Plan {
  return planSchema.options.find((plan) => LEAF_TYPES_BY_PLAN[plan].includes(type)) ?? 'scale';
}

/** A new leaf of the type, with neutral values the merchant then fills in. */
export function defaultLeaf(type: LeafType): LeafNode {
  switch (type) {
    case 'cart.subtotal_gte':
    case 'cart.subtotal_lte':
    case 'cart.total_gte':
      return { type, value: 0 };
    case 'cart.item_count_gte':
    case 'line.quantity_min':
      return { type, value: 1 };
    case 'line.has_product_id':
    case 'line.has_variant_id':
    case 'line.in_collection':
    case 'discount.code_equals':
      return { type, value: '' };
    case 'line.property_equals':
      return { type, key: '', value: '' };
    case 'line.has_selling_plan':
      return { type, value: 'has_subscription' };
    case 'customer.is_logged_in':
      return { type, value: true };
    case 'customer.tag_in':
    case 'market.handle_in':
    case 'country.in':
      return { type, value: [] };
    default:
      return { type };
  }
}

function convert(node: ConditionNode, type: string): ConditionNode {
  const children = node.type === 'AND' || node.type === 'OR' ? node.children : node.type === 'NOT' ? [node.child] : [node];
  if (type === 'AND' || type === 'OR') return { type, children };
  if (type === 'NOT') return { type, child: children[0] ?? defaultLeaf('cart.subtotal_gte') };
  return defaultLeaf(type as LeafType);
}

/**
 * A text field whose value is parsed (a number, a list, overrides): the merchant's text is kept
 * while typing and the parsed value goes up; a value changed elsewhere replaces the text.
 */
function ParsedField<T>(props: {
  label: string;
  value: T;
  format: (value: T) => string;
  parse: (text: string) => T;
  onChange: (value: T) => void;
  path: Path;
  helpText?: string;
  multiline?: boolean;
  type?: 'text' | 'number';
  /** What is wrong with the text, said before the server is asked (money that is not an amount). */
  invalid?: (text: string) => string | undefined;
  suffix?: string;
}) {
  const { value, format, parse } = props;
  const [text, setText] = useState(() => format(value));
  useEffect(() => {
    setText((current) => (JSON.stringify(parse(current)) === JSON.stringify(value) ? current : format(value)));
  }, [value, format, parse]);
  const error = useErrorAt(props.path) ?? props.invalid?.(text);
  return (
    <TextField
      label={props.label}
      value={text}
      type={props.type}
      suffix={props.suffix}
      multiline={props.multiline ? 2 : undefined}
      helpText={props.helpText}
      error={error}
      autoComplete="off"
      onChange={(next) => {
        setText(next);
        props.onChange(parse(next));
      }}
    />
  );
}

type FieldProps<T> = { label: string; value: T; onChange: (value: T) => void; path: Path; helpText?: string };

/** An integer; text that is not one is sent as typed, so the server names it. */
const formatNumber = (value: unknown) => (value === undefined ? '' : String(value));
const parseNumber = (text: string): unknown => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text);
export function NumberField(props: FieldProps<unknown>) {
  return <ParsedField {...props} type="number" format={formatNumber} parse={parseNumber} />;
}

const formatList = (value: unknown) => (Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '');
const parseList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
function ListField(props: FieldProps<unknown>) {
  return <ParsedField {...props} helpText={props.helpText ?? 'Separate with commas'} format={formatList} parse={parseList} />;
}

type Overrides = Record<string, number> | undefined;
const formatOverrides = (value: Overrides) =>
  Object.entries(value ?? {})
    .map(([key, amount]) => `${key}=${amount}`)
    .join('\n');
const parseOverrides = (text: string): Overrides => {
  const entries = text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [key = '', amount = ''] = line.split('=').map((part) => part.trim());
      return [key, /^-?\d+$/.test(amount) ? Number(amount) : (amount as unknown as number)] as const;
    });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
};
export function OverridesField(props: FieldProps<Overrides>) {
  return <ParsedField {...props} multiline format={formatOverrides} parse={parseOverrides} />;
}

/** The shop's base currency (App provides it from the session): thresholds without an override are in it. */
export const ShopCurrency = createContext('USD');

/**
 * Money in major units of `currency` ("50" is 50.00), held in minor units with the currency's
 * exponent; text that is not an amount is said at the field and sent as typed (the server's 400).
 */
export function MoneyField(props: FieldProps<unknown> & { currency: string }) {
  const { currency } = props;
  const format = useCallback((value: unknown) => (typeof value === 'number' ? toMajorText(value, currency) : typeof value === 'string' ? value : ''), [currency]);
  const parse = useCallback((text: string): unknown => (text.trim() === '' ? undefined : (toMinorUnits(text, currency) ?? text)), [currency]);
  const invalid = (text: string) => (text.trim() !== '' && toMinorUnits(text, currency) === undefined ? `Enter an amount in ${currency}, e.g. ${toMajorText(5000, currency)}` : undefined);
  return <ParsedField {...props} format={format} parse={parse} invalid={invalid} suffix={currency} />;
}

/** `CODE=amount` lines, each amount in major units of its currency: "EUR=45" is 4500 cents. */
const formatMoneyOverrides = (value: Overrides) =>
  Object.entries(value ?? {})
    .map(([code, amount]) => `${code}=${typeof amount === 'number' ? toMajorText(amount, code) : String(amount)}`)
    .join('\n');
const parseMoneyOverrides = (text: string): Overrides => {
  const entries = text
    .split(/\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [code = '', amount = ''] = line.split('=').map((part) => part.trim());
      const key = code.toUpperCase();
      return [key, toMinorUnits(amount, key) ?? (amount as unknown as number)] as const;
    });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
};
export function MoneyOverridesField(props: FieldProps<Overrides>) {
  return <ParsedField {...props} multiline format={formatMoneyOverrides} parse={parseMoneyOverrides} />;
}

function Text1(props: Omit<FieldProps<string | undefined>, 'onChange'> & { onChange: (value: string) => void }) {
  const error = useErrorAt(props.path);
  return <TextField label={props.label} value={props.value ?? ''} onChange={props.onChange} error={error} helpText={props.helpText} autoComplete="off" />;
}

/** A gid or numeric id: digits are sent as given (a string), which the engine accepts. */
const optional = (text: string) => (text === '' ? undefined : text);

function LeafFields({ leaf, onChange, path, label }: { leaf: LeafNode; onChange: (leaf: LeafNode) => void; path: Path; label: string }) {
  const set = (patch: Record<string, unknown>) => {
    const next: Record<string, unknown> = { ...leaf, ...patch };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    onChange(next as LeafNode);
  };
  const at = (key: string) => [...path, key];
  const currency = useContext(ShopCurrency);
  const restrictions = (l: Extract<LeafNode, { sellingPlanIds?: unknown }>) => (
    <>
      <ListField
        label={`${label}: only selling plans`}
        value={l.sellingPlanIds}
        path={at('sellingPlanIds')}
        helpText="Optional. SellingPlan gids, or _otp for one-time purchases; separate with commas"
        onChange={(value) => set({ sellingPlanIds: Array.isArray(value) && value.length > 0 ? value : undefined })}
      />
      <Text1 label={`${label}: only lines with property`} value={l.propertyKey} path={at('propertyKey')} helpText="Optional line property name" onChange={(value) => set({ propertyKey: optional(value) })} />
      <Text1 label={`${label}: property value`} value={l.propertyValue} path={at('propertyValue')} helpText="Optional" onChange={(value) => set({ propertyValue: optional(value) })} />
    </>
  );
  switch (leaf.type) {
    case 'cart.subtotal_gte':
    case 'cart.subtotal_lte':
    case 'cart.total_gte':
      return (
        <>
          <MoneyField label={`${label}: amount`} currency={currency} value={leaf.value} path={at('value')} helpText={`In ${currency}, the shop's currency`} onChange={(value) => set({ value })} />
          <MoneyOverridesField label={`${label}: currency overrides`} value={leaf.currencyOverrides} path={at('currencyOverrides')} helpText="Optional. One per line, in that currency: EUR=45.00" onChange={(value) => set({ currencyOverrides: value })} />
          <OverridesField label={`${label}: market overrides`} value={leaf.marketOverrides} path={at('marketOverrides')} helpText="Optional. One per line: market handle=amount in the market currency's smallest unit (cents: 4500 is 45.00)" onChange={(value) => set({ marketOverrides: value })} />
        </>
      );
    case 'cart.item_count_gte':
      return <NumberField label={`${label}: items`} value={leaf.value} path={at('value')} onChange={(value) => set({ value })} />;
    case 'line.has_product_id':
    case 'line.has_variant_id':
      return (
        <>
          <Text1
            label={`${label}: ${leaf.type === 'line.has_product_id' ? 'product' : 'variant'} id`}
            value={String(leaf.value)}
            path={at('value')}
            helpText={`A ${leaf.type === 'line.has_product_id' ? 'Product' : 'ProductVariant'} gid or numeric id`}
            onChange={(value) => set({ value })}
          />
          {restrictions(leaf)}
        </>
      );
    case 'line.in_collection':
      return (
        <Text1
          label={`${label}: collection`}
          value={String(leaf.value)}
          path={at('value')}
          helpText="A collection handle, numeric id or Collection gid"
          onChange={(value) => set({ value: /^\d+$/.test(value) ? Number(value) : value })}
        />
      );
    case 'line.quantity_min':
      return (
        <>
          <NumberField label={`${label}: quantity`} value={leaf.value} path={at('value')} onChange={(value) => set({ value })} />
          <Text1 label={`${label}: product gid`} value={leaf.productId} path={at('productId')} helpText="Give a product or a variant (the variant wins)" onChange={(value) => set({ productId: optional(value) })} />
          <Text1 label={`${label}: variant gid`} value={leaf.variantId} path={at('variantId')} onChange={(value) => set({ variantId: optional(value) })} />
          {restrictions(leaf)}
        </>
      );
    case 'line.property_equals':
      return (
        <>
          <Text1 label={`${label}: property name`} value={leaf.key} path={at('key')} onChange={(key) => set({ key })} />
          <Text1 label={`${label}: property value`} value={leaf.value} path={at('value')} onChange={(value) => set({ value })} />
        </>
      );
    case 'line.has_selling_plan':
      return (
        <Select
          label={`${label}: which`}
          value={leaf.value ?? ''}
          options={[
            { label: 'Has a subscription line', value: 'has_subscription' },
            { label: 'Has no subscription line', value: 'no_subscription' },
            { label: 'Has a subscription line (default)', value: '' },
          ]}
          onChange={(value) => set({ value })}
        />
      );
    case 'customer.tag_in':
      return <ListField label={`${label}: tags`} value={leaf.value} path={at('value')} onChange={(value) => set({ value })} />;
    case 'customer.is_logged_in':
      return (
        <Select
          label={`${label}: value`}
          value={String(leaf.value)}
          options={[
            { label: 'Logged in', value: 'true' },
            { label: 'Not logged in', value: 'false' },
          ]}
          onChange={(value) => set({ value: value === 'true' })}
        />
      );
    case 'market.handle_in':
      return <ListField label={`${label}: market handles`} value={leaf.value} path={at('value')} onChange={(value) => set({ value })} />;
    case 'country.in':
      return <ListField label={`${label}: country codes`} value={leaf.value} path={at('value')} helpText="2-letter codes, separate with commas" onChange={(value) => set({ value })} />;
    case 'discount.code_equals':
      return <Text1 label={`${label}: code`} value={leaf.value} path={at('value')} onChange={(value) => set({ value })} />;
    default:
      return (
        <Text as="p" tone="subdued">
          No settings.
        </Text>
      );
  }
}

type NodeProps = {
  node: ConditionNode;
  onChange: (node: ConditionNode) => void;
  onRemove?: () => void;
  plan: Plan;
  path: Path;
  /** Human name of the node, e.g. "Condition 1.2", used in every label inside it. */
  name: string;
  depth: number;
};

function typeOptions(plan: Plan) {
  return [
    ...(['AND', 'OR', 'NOT'] as const).map((type) => ({ label: GROUP_LABEL[type], value: type })),
    ...LEAF_TYPES.map((type) => {
      const allowed = isLeafAllowed(plan, type);
      return {
        label: allowed ? LEAF_LABEL[type] : `${LEAF_LABEL[type]} — locked: ${PLAN_NAMES[unlockingPlan(type)]} plan`,
        value: type,
        disabled: !allowed,
      };
    }),
  ];
}

export function ConditionNodeEditor({ node, onChange, onRemove, plan, path, name, depth }: NodeProps) {
  const isGroup = node.type === 'AND' || node.type === 'OR' || node.type === 'NOT';
  const locked = !isGroup && !isLeafAllowed(plan, node.type);
  const error = useErrorAt(path);
  const children = node.type === 'AND' || node.type === 'OR' ? node.children : [];
  const setChild = (index: number, child: ConditionNode) => {
    if (node.type === 'AND' || node.type === 'OR') onChange({ ...node, children: children.map((c, i) => (i === index ? child : c)) });
  };
  const add = (child: ConditionNode) => {
    if (node.type === 'AND' || node.type === 'OR') onChange({ ...node, children: [...children, child] });
  };
  return (
    <fieldset style={{ border: '1px solid var(--p-color-border)', borderRadius: 'var(--p-border-radius-200)', padding: 'var(--p-space-300)', margin: 0, minWidth: 0, background: depth % 2 ? 'var(--p-color-bg-surface-secondary)' : undefined }}>
      <legend style={{ padding: '0 var(--p-space-100)' }}>
        <Text as="span" variant="headingSm">
          {name}
        </Text>
      </legend>
      <BlockStack gap="200">
        <Select label={`${name}: type`} options={typeOptions(plan)} value={node.type} onChange={(type) => onChange(convert(node, type))} />
        {locked && (
          <InlineStack gap="200" blockAlign="center">
            <Badge tone="warning">Locked</Badge>
            <Text as="span" tone="caution">
              Needs the {PLAN_NAMES[unlockingPlan(node.type as LeafType)]} plan: this condition is removed when you save.
            </Text>
          </InlineStack>
        )}
        {error && !isGroup && (
          <Text as="p" tone="critical">
            {error}
          </Text>
        )}
        {!isGroup && <LeafFields leaf={node} onChange={onChange} path={path} label={name} />}
        {node.type === 'NOT' && (
          <ConditionNodeEditor node={node.child} onChange={(child) => onChange({ type: 'NOT', child })} plan={plan} path={[...path, 'child']} name={`${name}.1`} depth={depth + 1} />
        )}
        {(node.type === 'AND' || node.type === 'OR') && (
          <>
            {children.length === 0 && (
              <Text as="p" tone="subdued">
                No conditions in this group yet.
              </Text>
            )}
            {children.map((child, index) => (
              <ConditionNodeEditor
                key={index}
                node={child}
                onChange={(next) => setChild(index, next)}
                onRemove={() => onChange({ ...node, children: children.filter((_, i) => i !== index) })}
                plan={plan}
                path={[...path, 'children', index]}
                name={`${name}.${index + 1}`}
                depth={depth + 1}
              />
            ))}
            <InlineStack gap="200">
              <Button onClick={() => add(defaultLeaf('cart.subtotal_gte'))} accessibilityLabel={`Add condition to ${name}`}>
                Add condition
              </Button>
              <Button onClick={() => add({ type: 'OR', children: [] })} accessibilityLabel={`Add group to ${name}`}>
                Add group
              </Button>
            </InlineStack>
          </>
        )}
        <Box>
          <InlineStack gap="200">
            <Button variant="plain" onClick={() => onChange({ type: 'AND', children: [node] })} accessibilityLabel={`Put in a group: ${name}`}>
              Put in a group
            </Button>
            {onRemove && (
              <Button variant="plain" tone="critical" onClick={onRemove} accessibilityLabel={`Remove ${name}`}>
                Remove
              </Button>
            )}
          </InlineStack>
        </Box>
      </BlockStack>
    </fieldset>
  );
}

/** The leaves the plan locks, each with the plan that unlocks it. */
export function LockedLeaves({ plan }: { plan: Plan }) {
  const locked = LEAF_TYPES.filter((type) => !isLeafAllowed(plan, type));
  if (locked.length === 0) return null;
  return (
    <Text as="p" tone="subdued">
      Locked on the {PLAN_NAMES[plan]} plan: {locked.map((type) => `${LEAF_LABEL[type]} (${PLAN_NAMES[unlockingPlan(type)]})`).join(', ')}.
    </Text>
  );
}
