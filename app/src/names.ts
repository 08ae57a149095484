/**
 * Names instead of ids (issue 23, item 5): product and variant titles from the shop's catalog
 * mirror (GET /catalog/products, the listing the gift picker reads) and rule names from the
 * campaigns (GET /campaigns/:id). An id neither knows is shown as it is: the catalog is what the
 * operator sent, and a deleted campaign has no rules to name. The editors' gift cards read the
 * whole variant (picture, price, stock) from the same lookup, through `CatalogNamesContext`.
 */
import { createContext, useEffect, useState } from 'react';
import { api } from './api/client.ts';
import { variantName } from './pages/catalog-search.ts';
import type { ListedProduct, ListedVariant } from './pages/catalog-search.ts';
import { idKey } from './words.ts';

/** A catalog variant with its product, as the gift picker lists it. */
export type CatalogGift = { product: ListedProduct; variant: ListedVariant };

/**
 * `loaded` turns true once the catalog has answered (false while it is read, or when it failed);
 * `remember` adds a variant the gift picker handed over, which the pages read may not hold.
 */
export type CatalogNames = {
  variant: (id: string) => string | undefined;
  product: (id: string) => string | undefined;
  gift: (id: string) => CatalogGift | undefined;
  loaded: boolean;
  remember: (gift: CatalogGift) => void;
};

/** The page's one catalog lookup, for every gift card under it (undefined outside an editor). */
export const CatalogNamesContext = createContext<CatalogNames | undefined>(undefined);

/** Pages read of the catalog (100 products each): 1,000 products name every gift of a usual shop; later ones show their id. */
const MAX_PAGES = 10;

/** Reads the catalog once per mount; names are undefined until it has answered (or when it fails). */
export function useCatalogNames(): CatalogNames {
  const [maps, setMaps] = useState<{ variants: Map<string, CatalogGift>; products: Map<string, string>; loaded: boolean }>(() => ({ variants: new Map(), products: new Map(), loaded: false }));
  useEffect(() => {
    let current = true;
    void (async () => {
      const variants = new Map<string, CatalogGift>();
      const products = new Map<string, string>();
      let cursor: string | undefined;
      let loaded = false;
      for (let page = 0; page < MAX_PAGES; page++) {
        const { data } = await api.GET('/app/api/v1/catalog/products', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } });
        if (!data) break;
        loaded = true;
        for (const product of data.products) {
          products.set(idKey(product.id), product.title);
          for (const variant of product.variants) variants.set(idKey(variant.id), { product, variant });
        }
        if (!data.nextCursor) break;
        cursor = data.nextCursor;
      }
      // A variant picked meanwhile (remembered) is kept: it is the fresher of the two.
      if (current) setMaps((before) => ({ variants: new Map([...variants, ...before.variants]), products: new Map([...products, ...before.products]), loaded }));
    })();
    return () => {
      current = false;
    };
  }, []);
  const gift = (id: string) => maps.variants.get(idKey(id));
  return {
    variant: (id) => {
      const found = gift(id);
      return found && variantName(found.product, found.variant);
    },
    product: (id) => maps.products.get(idKey(id)),
    gift,
    loaded: maps.loaded,
    remember: ({ product, variant }) =>
      setMaps((before) => ({
        ...before,
        variants: new Map(before.variants).set(idKey(variant.id), { product, variant }),
        products: new Map(before.products).set(idKey(product.id), product.title),
      })),
  };
}

export type RuleNames = ((ruleId: string) => string | undefined) & { idOf: (name: string) => string | undefined };

/** Rule names by rule id (and ids by name), read from each campaign named (cached for the page's life). */
export function useRuleNames(campaignIds: readonly string[]): RuleNames {
  const [names, setNames] = useState<Map<string, string>>(() => new Map());
  const [asked] = useState<Set<string>>(() => new Set());
  const wanted = [...new Set(campaignIds)].filter((id) => !asked.has(id)).sort().join(',');
  useEffect(() => {
    if (wanted === '') return;
    const ids = wanted.split(',');
    for (const id of ids) asked.add(id);
    void Promise.all(ids.map((id) => api.GET('/app/api/v1/campaigns/{id}', { params: { path: { id } } }))).then((answers) => {
      setNames((before) => {
        const next = new Map(before);
        for (const { data } of answers) for (const rule of data?.campaign.rules ?? []) next.set(rule.id, rule.name);
        return next;
      });
    });
  }, [wanted, asked]);
  const lookup = (ruleId: string) => names.get(ruleId);
  return Object.assign(lookup, { idOf: (name: string) => [...names].find(([, candidate]) => candidate.trim().toLowerCase() === name.trim().toLowerCase())?.[0] });
}
