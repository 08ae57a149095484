/**
 * The gift picker's data: a title search over the shop's catalog (GET /catalog/products), pages
 * by cursor. A new search replaces the list after a short pause in typing; an answer to an older
 * search that arrives late is dropped.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';

type Listing = paths['/app/api/v1/catalog/products']['get']['responses'][200]['content']['application/json'];
export type ListedProduct = Listing['products'][number];
export type ListedVariant = ListedProduct['variants'][number];

const PAGE = 20;
const SEARCH_DELAY_MS = 250;
const FAILED = 'The catalog could not be loaded';

async function fetchPage(q: string, cursor?: string): Promise<Listing> {
  const { data, error } = await api.GET('/app/api/v1/catalog/products', {
    params: { query: { limit: PAGE, ...(q.trim() ? { q: q.trim() } : {}), ...(cursor ? { cursor } : {}) } },
  });
  if (!data) throw new Error(errorText(error, FAILED));
  return data;
}

/** @example const { products, loadMore } = useCatalogSearch(query); */
export function useCatalogSearch(query: string) {
  const [products, setProducts] = useState<ListedProduct[] | undefined>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [loadingMore, setLoadingMore] = useState(false);

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
        (error: unknown) => current && setLoadError(error instanceof Error ? error.message : FAILED),
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
      setLoadError(error instanceof Error ? error.message : FAILED);
    } finally {
      setLoadingMore(false);
    }
  };

  return { products, nextCursor, loadError, loadingMore, loadMore };
}

/** What the merchant reads about a variant's stock: CONTINUE sells past zero, so its count says nothing. */
export function stockText(variant: Pick<ListedVariant, 'inventoryQuantity' | 'inventoryPolicy' | 'soldOut'>): string {
  if (variant.soldOut) return 'Sold out';
  if (variant.inventoryPolicy === 'CONTINUE') return 'Not tracked';
  return `${variant.inventoryQuantity} in stock`;
}

/** "Enamel Mug – Blue", or the product's title alone for its one default variant. */
export const variantName = (product: ListedProduct, variant: ListedVariant): string =>
  variant.title === 'Default Title' || variant.title.trim() === '' ? product.title : `${product.title} – ${variant.title}`;
