/**
 * The gift picker's list: each product with its picture and its variants, each variant with its
 * price (the shop's currency), its stock and either a Choose button (one gift) or a checkbox
 * (several at once).
 */
import { BlockStack, Box, Button, Checkbox, Icon, InlineStack, Text, Thumbnail } from '@shopify/polaris';
import { ImageIcon } from '@shopify/polaris-icons';
import { useContext } from 'react';
import { CatalogNamesContext } from '../names.ts';
import { formatMinor } from '../words.ts';
import { stockText, variantName } from './catalog-search.ts';
import type { ListedProduct, ListedVariant } from './catalog-search.ts';
import { ShopCurrency } from './ConditionFields.tsx';

/** A catalog variant as chosen: its id and its product's (a cart line needs both). */
export type PickedVariant = { variantId: string; productId: string };

/** One gift (`onPick`) or several (`selected`/`onToggle`). */
export type PickMode = { kind: 'one'; onPick: (picked: PickedVariant) => void } | { kind: 'many'; selected: ReadonlySet<string>; onToggle: (picked: PickedVariant, on: boolean) => void };

export function ProductImage({ product }: { product: ListedProduct }) {
  // The title is next to it: the picture adds nothing a screen reader needs.
  if (product.imageUrl) return <Thumbnail source={product.imageUrl} alt="" size="small" />;
  return (
    <div style={{ width: 40, height: 40, display: 'grid', placeItems: 'center', borderRadius: 8, background: 'var(--p-color-bg-surface-secondary)', flexShrink: 0 }}>
      <Icon source={ImageIcon} tone="subdued" />
    </div>
  );
}

function VariantRow({ product, variant, mode }: { product: ListedProduct; variant: ListedVariant; mode: PickMode }) {
  const currency = useContext(ShopCurrency);
  const name = variantName(product, variant);
  const stock = stockText(variant);
  const price = variant.price === null ? undefined : formatMinor(variant.price, currency);
  const facts = (
    <Text as="span">
      {variant.title === 'Default Title' ? 'Default' : variant.title}
      {price ? ` · ${price}` : ''}
      {' · '}
      <Text as="span" tone={variant.soldOut ? 'critical' : 'subdued'}>
        {stock}
      </Text>
    </Text>
  );
  // The editor's gift cards learn the picked variant even when their catalog read does not hold it.
  const names = useContext(CatalogNamesContext);
  const picked = { variantId: variant.id, productId: product.id };
  const remember = () => names?.remember({ product, variant });
  if (mode.kind === 'many') {
    const label = (
      <>
        <Text as="span" visuallyHidden>
          {product.title}:{' '}
        </Text>
        {facts}
      </>
    );
    return (
      <Checkbox
        label={label}
        checked={mode.selected.has(variant.id)}
        onChange={(on) => {
          remember();
          mode.onToggle(picked, on);
        }}
      />
    );
  }
  return (
    <InlineStack gap="200" align="space-between" blockAlign="center" wrap={false}>
      {facts}
      <Button
        onClick={() => {
          remember();
          mode.onPick(picked);
        }}
        accessibilityLabel={`Choose ${name}, ${price ? `${price}, ` : ''}${stock}`}
      >
        Choose
      </Button>
    </InlineStack>
  );
}

export function GiftPickerList({ products, mode }: { products: ListedProduct[]; mode: PickMode }) {
  return (
    <>
      {products.map((product) =>
        product.variants.length === 0 ? null : (
          <Box key={product.id} paddingBlockEnd="200">
            <InlineStack gap="300" blockAlign="start" wrap={false}>
              <ProductImage product={product} />
              <div style={{ flex: 1, minWidth: 0 }}>
                <BlockStack gap="100">
                  <Text as="h3" variant="headingSm">
                    {product.title}
                    {product.status !== 'active' ? ` (${product.status})` : ''}
                  </Text>
                  <ul aria-label={`Variants of ${product.title}`} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                    {product.variants.map((variant) => (
                      <li key={variant.id}>
                        <VariantRow product={product} variant={variant} mode={mode} />
                      </li>
                    ))}
                  </ul>
                </BlockStack>
              </div>
            </InlineStack>
          </Box>
        ),
      )}
    </>
  );
}
