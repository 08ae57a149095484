/**
 * A rule's gifts in the campaign editor: each gift's variant, chosen from the catalog with
 * GiftPicker (one gift, or several at once) or typed in for a variant the catalog mirror does not
 * know (each shown as its product with GiftCard), its quantity, the out-of-stock fallback and the repeat (`per`).
 */
import { BlockStack, Button, Checkbox, InlineGrid, InlineStack, Select, Text } from '@shopify/polaris';
import { useContext } from 'react';
import type { RuleBody } from './campaign-body.ts';
import { GiftCard } from './GiftCard.tsx';
import { GiftPicker } from './GiftPicker.tsx';
import { MoneyField, MoneyOverridesField, NumberField, PlainTextField as Field, ShopCurrency } from './ConditionFields.tsx';

type Gifts = RuleBody['giftConfig']['gifts'];

/**
 * The gifts after several were picked at once: they fill the empty slots first (a template's, or
 * a new rule's), then are added; a variant already given is not given twice.
 *
 * @example withPicked([{ variantId: '', quantity: 1 }], ['gid://…/1', 'gid://…/2']); // both, quantity 1
 */
export function withPicked(gifts: Gifts, variantIds: readonly string[]): Gifts {
  const fresh = variantIds.filter((id) => !gifts.some((gift) => gift.variantId === id));
  const next = gifts.map((gift) => (gift.variantId === '' && fresh.length > 0 ? { ...gift, variantId: fresh.shift() ?? '' } : gift));
  return [...next, ...fresh.map((variantId) => ({ variantId, quantity: 1 }))];
}

export function RuleGifts({ rule, label, at, onChange }: { rule: RuleBody; label: string; at: (...rest: (string | number)[]) => (string | number)[]; onChange: (rule: RuleBody) => void }) {
  const currency = useContext(ShopCurrency);
  const gifts = rule.giftConfig.gifts;
  const setGifts = (next: typeof gifts) => onChange({ ...rule, giftConfig: { ...rule.giftConfig, gifts: next } });
  const per = rule.giftConfig.per;
  const setPer = (next: typeof per) => {
    const { per: _old, ...giftConfig } = rule.giftConfig;
    onChange({ ...rule, giftConfig: next ? { ...giftConfig, per: next } : giftConfig });
  };
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        Gifts
      </Text>
      <Text as="p" tone="subdued">
        Choose each gift from the catalog, or type its variant id (gid://shopify/ProductVariant/…) when the catalog does not have it. Enabling the campaign checks each gift's stock and status.
      </Text>
      {gifts.map((gift, giftIndex) => (
        <InlineGrid key={giftIndex} columns={{ xs: 1, md: ['twoThirds', 'oneThird'] }} gap="200">
          <BlockStack gap="100">
            <GiftCard label={`${label} gift ${giftIndex + 1}`} variantId={gift.variantId} />
            <Field
              label={`${label} gift ${giftIndex + 1} variant id`}
              value={gift.variantId}
              path={at('giftConfig', 'gifts', giftIndex, 'variantId')}
              onChange={(variantId) => setGifts(gifts.map((g, i) => (i === giftIndex ? { ...g, variantId } : g)))}
            />
            <GiftPicker label={`${label} gift ${giftIndex + 1}`} onPick={({ variantId }) => setGifts(gifts.map((g, i) => (i === giftIndex ? { ...g, variantId } : g)))} />
          </BlockStack>
          <BlockStack gap="100">
            <NumberField
              label={`${label} gift ${giftIndex + 1} quantity`}
              value={gift.quantity}
              path={at('giftConfig', 'gifts', giftIndex, 'quantity')}
              onChange={(quantity) => setGifts(gifts.map((g, i) => (i === giftIndex ? { ...g, quantity: quantity as number } : g)))}
            />
            {gifts.length > 1 && (
              <Button variant="plain" tone="critical" onClick={() => setGifts(gifts.filter((_, i) => i !== giftIndex))} accessibilityLabel={`Remove gift ${giftIndex + 1} of ${label}`}>
                Remove gift
              </Button>
            )}
          </BlockStack>
        </InlineGrid>
      ))}
      <InlineStack gap="200">
        <Button onClick={() => setGifts([...gifts, { variantId: '', quantity: 1 }])} accessibilityLabel={`Add gift to ${label}`}>
          Add gift
        </Button>
        <GiftPicker label={label} onPickMany={(picked) => setGifts(withPicked(gifts, picked.map((p) => p.variantId)))} />
      </InlineStack>
      <Checkbox
        label={`${label}: when a gift is out of stock, give the next one`}
        checked={rule.giftConfig.fallbackOnOOS ?? false}
        onChange={(fallbackOnOOS) => onChange({ ...rule, giftConfig: { ...rule.giftConfig, fallbackOnOOS } })}
      />
      <Checkbox label={`${label}: repeat the gift`} checked={per !== undefined} onChange={(on) => setPer(on ? { every: 1, of: 'items', max: 1 } : undefined)} />
      {per && (
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="200">
          {per.of === 'subtotal' ? (
            <MoneyField label={`${label}: one gift set per`} currency={currency} value={per.every} path={at('giftConfig', 'per', 'every')} onChange={(every) => setPer({ ...per, every: every as number })} />
          ) : (
            <NumberField label={`${label}: one gift set per`} value={per.every} path={at('giftConfig', 'per', 'every')} onChange={(every) => setPer({ ...per, every: every as number })} />
          )}
          <Select
            label={`${label}: counted in`}
            value={per.of}
            options={[
              { label: 'Items', value: 'items' },
              { label: `Subtotal (${currency})`, value: 'subtotal' },
            ]}
            onChange={(of) => setPer({ ...per, of: of as 'items' | 'subtotal' })}
          />
          <NumberField label={`${label}: at most sets`} value={per.max} path={at('giftConfig', 'per', 'max')} onChange={(max) => setPer({ ...per, max: max as number })} />
          {per.of === 'subtotal' && (
            <MoneyOverridesField
              label={`${label}: subtotal step per currency`}
              value={per.currencyOverrides}
              path={at('giftConfig', 'per', 'currencyOverrides')}
              helpText="Optional. One per line, in that currency: EUR=45.00"
              onChange={(currencyOverrides) => setPer({ ...per, ...(currencyOverrides ? { currencyOverrides } : { currencyOverrides: undefined }) })}
            />
          )}
        </InlineGrid>
      )}
    </BlockStack>
  );
}
