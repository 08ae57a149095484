/**
 * A leaf's fields in the condition builder, rendered from its form in the engine's leaf
 * registry (`leafForm`: label, fields, kinds): there is no per-leaf code here, so a new leaf
 * needs none. Each field's label is the node's name and the field's: "Rule 1 condition.2: amount".
 */
import { Select, Text } from '@shopify/polaris';
import { leafForm } from '@gcrs/engine';
import type { LeafField, LeafNode } from '@gcrs/engine';
import { useContext } from 'react';
import { ListField, MoneyField, MoneyOverridesField, NumberField, OverridesField, PlainTextField, ShopCurrency } from './ConditionFields.tsx';
import type { Overrides, Path } from './ConditionFields.tsx';

type FieldView = { field: LeafField; label: string; value: unknown; path: Path; set: (value: unknown) => void; currency: string };

const asText = (value: unknown) => (value === undefined ? '' : String(value));
/** Empty leaves an optional field out of the leaf. */
const orAbsent = (text: string) => (text === '' ? undefined : text);

function Field({ field, label, value, path, set, currency }: FieldView) {
  const common = { label, path, helpText: field.help };
  switch (field.kind) {
    case 'money':
      return <MoneyField {...common} currency={currency} value={value} helpText={field.help ?? `In ${currency}, the shop's currency`} onChange={set} />;
    case 'moneyOverrides':
      return <MoneyOverridesField {...common} value={value as Overrides} onChange={set} />;
    case 'overrides':
      return <OverridesField {...common} value={value as Overrides} onChange={set} />;
    case 'integer':
      return <NumberField {...common} value={value} onChange={set} />;
    case 'list':
      return <ListField {...common} value={value} onChange={set} />;
    case 'optionalList':
      return <ListField {...common} value={value} onChange={(list) => set(Array.isArray(list) && list.length > 0 ? list : undefined)} />;
    case 'text':
      return <PlainTextField {...common} value={asText(value)} onChange={set} />;
    case 'optionalText':
      return <PlainTextField {...common} value={asText(value)} onChange={(text) => set(orAbsent(text))} />;
    case 'idOrNumber':
      // A collection's numeric id is sent as a number; a handle or gid as text.
      return <PlainTextField {...common} value={asText(value)} onChange={(text) => set(/^\d+$/.test(text) ? Number(text) : text)} />;
    case 'choice':
      return <Select label={label} value={asText(value)} options={[...(field.options ?? [])]} onChange={set} />;
    case 'yesNo':
      return <Select label={label} value={String(value)} options={[...(field.options ?? [])]} onChange={(choice) => set(choice === 'true')} />;
  }
}

/** The fields of one leaf, in its form's order; a field emptied to `undefined` leaves the leaf. */
export function LeafFields({ leaf, onChange, path, label }: { leaf: LeafNode; onChange: (leaf: LeafNode) => void; path: Path; label: string }) {
  const currency = useContext(ShopCurrency);
  const { fields } = leafForm(leaf.type);
  if (fields.length === 0) {
    return (
      <Text as="p" tone="subdued">
        No settings.
      </Text>
    );
  }
  const values: Record<string, unknown> = leaf;
  const set = (key: string) => (value: unknown) => {
    const next: Record<string, unknown> = { ...leaf, [key]: value };
    if (value === undefined) delete next[key];
    // The field's own value, set by its own kind: still the leaf's shape.
    onChange(next as LeafNode);
  };
  return (
    <>
      {fields.map((field) => (
        <Field key={field.key} field={field} label={`${label}: ${field.label}`} value={values[field.key]} path={[...path, field.key]} set={set(field.key)} currency={currency} />
      ))}
    </>
  );
}
