/**
 * One tier of the ladder editor: what the cart must reach (in the shop's currency, optional
 * amounts in other currencies), its gifts (each from the catalog with GiftPicker, or typed in,
 * shown as its product with GiftCard),
 * and whether the shopper chooses one of them. Errors the server names show at their field.
 */
import { BlockStack, Button, Card, Checkbox, InlineGrid, InlineStack, Text, TextField } from '@shopify/polaris';
import { useContext } from 'react';
import { toMajorText } from '../../words.ts';
import { GiftCard } from '../GiftCard.tsx';
import { GiftPicker } from '../GiftPicker.tsx';
import { MoneyField, MoneyOverridesField, ShopCurrency, useErrorAt } from '../ConditionFields.tsx';
import type { LadderTier } from './ladder-rules.ts';

/** A field's place in the form, for the server's errors: `['tiers', tier, …]`. */
export type TierPath = (string | number)[];

function GiftField({ label, value, path, onChange }: { label: string; value: string; path: TierPath; onChange: (value: string) => void }) {
  const error = useErrorAt(path);
  return <TextField label={label} value={value} error={error} autoComplete="off" onChange={onChange} helpText="Choose from the catalog, or type its variant id" />;
}

/** A tier's name until the merchant writes another: "Spend 50.00 USD". */
export const tierName = (value: number, currency: string): string => `Spend ${toMajorText(value, currency)} ${currency}`;

export function TierCard({ tier, index, onChange, onRemove }: { tier: LadderTier; index: number; onChange: (tier: LadderTier) => void; onRemove: () => void }) {
  const currency = useContext(ShopCurrency);
  const label = `Tier ${index + 1}`;
  const at = (...rest: (string | number)[]): TierPath => ['tiers', index, ...rest];
  const setGift = (giftIndex: number, variantId: string) => onChange({ ...tier, gifts: tier.gifts.map((gift, i) => (i === giftIndex ? { ...gift, variantId } : gift)) });
  const removeGift = (giftIndex: number) => {
    // An added tier has one rule per gift: the removed gift's rule goes with it.
    const ruleIds = tier.choice ? tier.ruleIds : tier.ruleIds?.filter((_, i) => i !== giftIndex);
    onChange({ ...tier, ...(ruleIds ? { ruleIds } : {}), gifts: tier.gifts.filter((_, i) => i !== giftIndex) });
  };
  const threshold = tier.threshold;
  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            {label}
          </Text>
          <Button tone="critical" onClick={onRemove} accessibilityLabel={`Remove ${label}`}>
            Remove tier
          </Button>
        </InlineStack>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="200">
          <MoneyField
            label={`${label}: when the cart reaches`}
            currency={currency}
            value={threshold.value}
            path={at('threshold')}
            helpText="Subtotal of the items bought, gifts not counted"
            onChange={(value) => {
              // The name follows the amount while it is the one the editor gave.
              const name = typeof value === 'number' && tier.name === tierName(threshold.value, currency) ? tierName(value, currency) : tier.name;
              onChange({ ...tier, name, threshold: { ...threshold, value: value as number } });
            }}
          />
          <MoneyOverridesField
            label={`${label}: in other currencies`}
            value={threshold.currencyOverrides}
            path={at('currencyOverrides')}
            helpText={`Optional. One per line, in that currency: EUR=45.00. A cart in a currency not listed here and not ${currency} gets no gift`}
            onChange={(currencyOverrides) => {
              const { currencyOverrides: _old, ...rest } = threshold;
              onChange({ ...tier, threshold: currencyOverrides ? { ...rest, currencyOverrides } : rest });
            }}
          />
        </InlineGrid>
        <TextField label={`${label} name`} value={tier.name} autoComplete="off" helpText="For you: the simulator and analytics show it" onChange={(name) => onChange({ ...tier, name })} />
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Gifts of {label.toLowerCase()}
          </Text>
          {tier.gifts.map((gift, giftIndex) => (
            <InlineGrid key={giftIndex} columns={{ xs: 1, md: ['twoThirds', 'oneThird'] }} gap="200">
              <BlockStack gap="100">
                <GiftCard label={`${label} gift ${giftIndex + 1}`} variantId={gift.variantId} />
                <GiftField label={`${label} gift ${giftIndex + 1}`} value={gift.variantId} path={at('gifts', giftIndex, 'variantId')} onChange={(variantId) => setGift(giftIndex, variantId)} />
              </BlockStack>
              <BlockStack gap="100" inlineAlign="start">
                <GiftPicker label={`${label} gift ${giftIndex + 1}`} onPick={({ variantId }) => setGift(giftIndex, variantId)} />
                {tier.gifts.length > 1 && (
                  <Button variant="plain" tone="critical" onClick={() => removeGift(giftIndex)} accessibilityLabel={`Remove gift ${giftIndex + 1} of ${label}`}>
                    Remove gift
                  </Button>
                )}
              </BlockStack>
            </InlineGrid>
          ))}
          <InlineStack>
            <Button onClick={() => onChange({ ...tier, gifts: [...tier.gifts, { variantId: '', quantity: 1 }] })} accessibilityLabel={`Add gift to ${label}`}>
              Add gift
            </Button>
          </InlineStack>
          <Checkbox
            label={`${label}: the shopper chooses one of these gifts`}
            helpText={tier.choice ? 'The storefront offers the gifts; the shopper picks one' : 'Every gift of this tier is added to the cart'}
            checked={tier.choice}
            onChange={(choice) => onChange({ ...tier, choice, ...(tier.ruleIds ? { ruleIds: tier.ruleIds.slice(0, 1) } : {}) })}
          />
        </BlockStack>
      </BlockStack>
    </Card>
  );
}
