/**
 * Names instead of ids (issue 23, item 5): product and variant titles from the shop's catalog
 * mirror (GET /catalog/products, the listing the gift picker reads) and rule names from the
 * campaigns (GET /campaigns/:id). An id neither knows is shown as it is: the catalog is what the
 * operator sent, and a deleted campaign has no rules to name.
 */
import { useEffect, useState } from 'react';
import { api } from './api/client.ts';
import { idKey } from './words.ts';

export type CatalogNames = { variant: (id: string) => string | undefined; product: (id: string) => string | undefined };

/** Pages read of the catalog (100 products each): 1,000 products name every gift of a usual shop; later ones show their id. */
const MAX_PAGES = 10;

const variantTitle = (productTitle: string, title: string) => (title === 'Default Title' || title.trim() === '' ? productTitle : `${productTitle} – ${title}`);

/** Reads the catalog once per mount; names are undefined until it has answered (or when it fails). */
export function useCatalogNames(): CatalogNames {
  const [maps, setMaps] = useState<{ variants: Map<string, string>; products: Map<string, string> }>(() => ({ variants: new Map(), products: new Map() }));
  useEffect(() => {
    let current = true;
    void (async () => {
      const variants = new Map<string, string>();
      const products = new Map<string, string>();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const { data } = await api.GET('/app/api/v1/catalog/products', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } });
        if (!data) break;
        for (const product of data.products) {
          products.set(idKey(product.id), product.title);
          for (const variant of product.variants) variants.set(idKey(variant.id), variantTitle(product.title, variant.title));
        }
        if (!data.nextCursor) break;
        cursor = data.nextCursor;
      }
      if (current) setMaps({ variants, products });
    })();
    return () => {
      current = false;
    };
  }, []);
  return { variant: (id) => maps.variants.get(idKey(id)), product: (id) => maps.products.get(idKey(id)) };
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
