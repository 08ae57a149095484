/**
 * A chosen gift as the merchant knows it (issue 23 items 5 and 8), in the campaign editor and the
 * tier ladder: the product's picture (or the placeholder), "Product – Variant", its price in the
 * shop's currency and its stock, as the gift picker lists them. The editor page looks up the
 * variants its cards show (names.ts), wherever they sit in the catalog. The variant id stays a secondary detail: the field under the
 * card, where an id the catalog does not know is typed in, and the JSON view.
 */
import { BlockStack, Box, InlineStack, Text } from '@shopify/polaris';
import type { ReactNode } from 'react';
import { useContext } from 'react';
import { CatalogNamesContext, useCatalogNames } from '../names.ts';
import { formatMinor } from '../words.ts';
import { stockText, variantName } from './catalog-search.ts';
import { ShopCurrency } from './ConditionFields.tsx';
import { ProductImage } from './GiftPickerList.tsx';

/** One catalog lookup for every gift card of the page under it. */
export function CatalogNamesProvider({ children }: { children: ReactNode }) {
  return <CatalogNamesContext.Provider value={useCatalogNames()}>{children}</CatalogNamesContext.Provider>;
}

function Summary({ children }: { children: ReactNode }) {
  return (
    <Text as="p" tone="subdued" breakWord>
      {children}
    </Text>
  );
}

/** `label` names the gift for a screen reader ("Rule 1 gift 1"); the card is a group of that name. */
export function GiftCard({ label, variantId }: { label: string; variantId: string }) {
  const names = useContext(CatalogNamesContext);
  const currency = useContext(ShopCurrency);
  const id = variantId.trim();
  const found = id === '' ? undefined : names?.gift(id);
  let body: ReactNode;
  if (id === '') body = <Summary>No gift chosen yet</Summary>;
  else if (!found) body = <Summary>{names?.looked(id) ? `Unknown product (id ${id})` : `Looking up ${id} in the catalog…`}</Summary>;
  else {
    const { product, variant } = found;
    const price = variant.price === null ? 'Price unknown' : formatMinor(variant.price, currency);
    body = (
      <InlineStack gap="300" blockAlign="center" wrap={false}>
        <ProductImage product={product} />
        <div style={{ minWidth: 0 }}>
          <BlockStack gap="050">
            <Text as="p" fontWeight="semibold" breakWord>
              {variantName(product, variant)}
              {product.status !== 'active' ? ` (${product.status})` : ''}
            </Text>
            <Text as="p">
              {price}
              {' · '}
              <Text as="span" tone={variant.soldOut ? 'critical' : 'subdued'}>
                {stockText(variant)}
              </Text>
            </Text>
          </BlockStack>
        </div>
      </InlineStack>
    );
  }
  return (
    <div role="group" aria-label={`${label}, chosen`}>
      <Box padding="200" borderWidth="025" borderColor="border" borderRadius="200">
        {body}
      </Box>
    </div>
  );
}
