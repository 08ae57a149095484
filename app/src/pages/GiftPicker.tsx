/**
 * The gift picker of the campaign editor: a dialog with a title search over the shop's catalog
 * (GET /catalog/products), listing each product's variants with their stock; choosing one fills
 * the gift's variant id. The typed-in id stays for a variant the catalog mirror does not know.
 */
import { Banner, BlockStack, Box, Button, InlineStack, Modal, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { useEffect, useRef, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';

type Listing = paths['/app/api/v1/catalog/products']['get']['responses'][200]['content']['application/json'];
type ListedProduct = Listing['products'][number];
type ListedVariant = ListedProduct['variants'][number];

/** What the merchant reads about a variant's stock: CONTINUE sells past zero, so its count says nothing. */
export function stockText(variant: Pick<ListedVariant, 'inventoryQuantity' | 'inventoryPolicy' | 'soldOut'>): string {
  if (variant.soldOut) return 'Sold out';
  if (variant.inventoryPolicy === 'CONTINUE') return 'Not tracked';
  return `${variant.inventoryQuantity} in stock`;
}

const variantName = (product: ListedProduct, variant: ListedVariant) =>
  variant.title === 'Default Title' || variant.title.trim() === '' ? product.title : `${product.title} – ${variant.title}`;

const PAGE = 20;
const SEARCH_DELAY_MS = 250;

/** A catalog variant as chosen: its id and its product's (a cart line needs both). */
export type PickedVariant = { variantId: string; productId: string };

export function GiftPicker({ label, onPick }: { label: string; onPick: (picked: PickedVariant) => void }) {
  const [open, setOpen] = useState(false);
  // The dialog is unmounted on close (Polaris' own return of focus runs only after its exit
  // transition), so focus would fall to <body>: it goes back to the button that opened it.
  const opener = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.querySelector('button')?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <>
      <InlineStack>
        <div ref={opener}>
          <Button onClick={() => setOpen(true)} accessibilityLabel={`Choose from catalog for ${label}`}>
            Choose from catalog
          </Button>
        </div>
      </InlineStack>
      {open && (
        <PickerDialog
          label={label}
          onClose={() => setOpen(false)}
          onPick={(picked) => {
            onPick(picked);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function PickerDialog({ label, onClose, onPick }: { label: string; onClose: () => void; onPick: (picked: PickedVariant) => void }) {
  const [query, setQuery] = useState('');
  const [products, setProducts] = useState<ListedProduct[] | undefined>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [loadingMore, setLoadingMore] = useState(false);

  const fetchPage = async (q: string, cursor?: string) => {
    const { data, error } = await api.GET('/app/api/v1/catalog/products', {
      params: { query: { limit: PAGE, ...(q.trim() ? { q: q.trim() } : {}), ...(cursor ? { cursor } : {}) } },
    });
    if (!data) throw new Error(errorText(error, 'The catalog could not be loaded'));
    return data;
  };

  // A new search replaces the list; an answer to an older search that arrives late is dropped.
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      setProducts(undefined);
      setLoadError(undefined);
      fetchPage(query).then(
        (data) => {
          if (!current) return;
          setProducts(data.products);
          setNextCursor(data.nextCursor);
        },
        (error: unknown) => current && setLoadError(error instanceof Error ? error.message : 'The catalog could not be loaded'),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query]);

  const loadMore = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    try {
      const data = await fetchPage(query, nextCursor);
      setProducts((before) => [...(before ?? []), ...data.products]);
      setNextCursor(data.nextCursor);
    } catch (error) {
      setLoadError(error instanceof Error ? error.message : 'The catalog could not be loaded');
    } finally {
      setLoadingMore(false);
    }
  };

  const count = products?.reduce((sum, p) => sum + p.variants.length, 0) ?? 0;
  return (
    <Modal open onClose={onClose} title={`Choose ${label}`} secondaryActions={[{ content: 'Cancel', onAction: onClose }]}>
      <Modal.Section>
        <BlockStack gap="300">
          <TextField
            label="Search products"
            value={query}
            onChange={setQuery}
            autoComplete="off"
            clearButton
            onClearButtonClick={() => setQuery('')}
            helpText="Product titles containing this text"
            autoFocus
          />
          {loadError && (
            <Banner tone="critical" title="The catalog could not be loaded">
              <p>{loadError}</p>
            </Banner>
          )}
          {!products && !loadError && <SkeletonBodyText lines={4} />}
          {products && (
            <div role="status">
            <Text as="p" tone="subdued">
              {count === 0
                ? query.trim()
                  ? `No product matches “${query.trim()}”. You can still type the variant id in the gift field.`
                  : 'The catalog is empty: send products with POST /catalog, or type the variant id in the gift field.'
                : `${count} variant${count === 1 ? '' : 's'}${nextCursor ? ' so far' : ''}`}
            </Text>
            </div>
          )}
          {products?.map((product) =>
            product.variants.length === 0 ? null : (
              <Box key={product.id} paddingBlockEnd="200">
                <BlockStack gap="100">
                  <Text as="h3" variant="headingSm">
                    {product.title}
                    {product.status !== 'active' ? ` (${product.status})` : ''}
                  </Text>
                  <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                    {product.variants.map((variant) => (
                      <li key={variant.id}>
                        <InlineStack gap="200" align="space-between" blockAlign="center" wrap={false}>
                          <Text as="span">
                            {variant.title === 'Default Title' ? product.title : variant.title}
                            {' · '}
                            <Text as="span" tone={variant.soldOut ? 'critical' : 'subdued'}>
                              {stockText(variant)}
                            </Text>
                          </Text>
                          <Button onClick={() => onPick({ variantId: variant.id, productId: product.id })} accessibilityLabel={`Choose ${variantName(product, variant)}, ${stockText(variant)}`}>
                            Choose
                          </Button>
                        </InlineStack>
                      </li>
                    ))}
                  </ul>
                </BlockStack>
              </Box>
            ),
          )}
          {nextCursor && products && (
            <InlineStack>
              <Button onClick={() => void loadMore()} loading={loadingMore}>
                Show more products
              </Button>
            </InlineStack>
          )}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
