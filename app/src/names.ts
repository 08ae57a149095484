/**
 * Names instead of ids (issue 23, item 5): product and variant titles from the shop's catalog
 * mirror and rule names from the campaigns (GET /campaigns/:id). Only the variants a screen
 * shows are looked up (GET /catalog/variants?ids=…, 100 a request), wherever they sit in the
 * catalog: reading the listing's first pages once left a gift past product 1,000 "unknown" (issue
 * 23 item 8). An id the catalog does not know is shown as it is. The editors' gift cards read the
 * whole variant (picture, price, stock) from the same lookup, through `CatalogNamesContext`.
 */
import { createContext, useCallback, useEffect, useRef, useState } from 'react';
import { api } from './api/client.ts';
import { variantName } from './pages/catalog-search.ts';
import type { ListedProduct, ListedVariant } from './pages/catalog-search.ts';
import { idKey } from './words.ts';

/** A catalog variant with its product, as the gift picker lists it. */
export type CatalogGift = { product: ListedProduct; variant: ListedVariant };

/**
 * `variant`, `product` and `gift` answer from what was looked up, and ask for a variant id not
 * yet asked (its answer re-renders); `looked(id)` turns true once the catalog has answered for
 * it (false while it is read, or when the read failed); `remember` adds a variant the gift
 * picker handed over.
 */
export type CatalogNames = {
  variant: (id: string) => string | undefined;
  product: (id: string) => string | undefined;
  gift: (id: string) => CatalogGift | undefined;
  looked: (id: string) => boolean;
  remember: (gift: CatalogGift) => void;
};

/** The page's one catalog lookup, for every gift card under it (undefined outside an editor). */
export const CatalogNamesContext = createContext<CatalogNames | undefined>(undefined);

/** GET /catalog/variants takes at most 100 ids a request. */
const IDS_PER_REQUEST = 100;
/** What a variant lookup accepts: a variant gid or its numeric id (anything else is never asked). */
const LOOKABLE = /^(gid:\/\/[A-Za-z0-9._-]+\/ProductVariant\/)?\d{1,20}$/;

type Found = { variants: Map<string, CatalogGift>; products: Map<string, string>; answered: Set<string> };

/** Looks up the variants the screen asks for, batched per render; names are undefined until answered. */
export function useCatalogNames(): CatalogNames {
  const [found, setFound] = useState<Found>(() => ({ variants: new Map(), products: new Map(), answered: new Set() }));
  const asked = useRef(new Set<string>());
  const pending = useRef<string[]>([]);
  const mounted = useRef(true);
  const [wanted, setWanted] = useState(0);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Ids asked during a render are read after it, in requests of at most 100.
  useEffect(() => {
    if (pending.current.length === 0) return;
    const ids = pending.current;
    pending.current = [];
    void (async () => {
      for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
        const chunk = ids.slice(start, start + IDS_PER_REQUEST);
        const { data } = await api.GET('/app/api/v1/catalog/variants', { params: { query: { ids: chunk.join(',') } } });
        if (!mounted.current) return;
        if (!data) {
          // Asked again by a later render: a failed read is not an unknown gift.
          for (const id of chunk) asked.current.delete(id);
          continue;
        }
        setFound((before) => {
          const next: Found = { variants: new Map(before.variants), products: new Map(before.products), answered: new Set(before.answered) };
          for (const id of chunk) next.answered.add(idKey(id));
          for (const product of data.products) {
            next.products.set(idKey(product.id), product.title);
            // A variant picked meanwhile (remembered) is kept: it is the fresher of the two.
            for (const variant of product.variants) if (!next.variants.has(idKey(variant.id))) next.variants.set(idKey(variant.id), { product, variant });
          }
          return next;
        });
      }
    })();
  }, [wanted]);

  const ask = (id: string) => {
    const key = idKey(id);
    if (asked.current.has(key) || !LOOKABLE.test(id.trim())) return;
    asked.current.add(key);
    pending.current.push(id.trim());
    // Scheduled, not set during render: the effect above reads the batch once this render is done.
    queueMicrotask(() => mounted.current && setWanted((n) => n + 1));
  };
  const gift = (id: string) => {
    const hit = found.variants.get(idKey(id));
    if (!hit) ask(id);
    return hit;
  };
  const remember = useCallback(
    ({ product, variant }: CatalogGift) =>
      setFound((before) => ({
        ...before,
        variants: new Map(before.variants).set(idKey(variant.id), { product, variant }),
        products: new Map(before.products).set(idKey(product.id), product.title),
      })),
    [],
  );
  return {
    variant: (id) => {
      const hit = gift(id);
      return hit && variantName(hit.product, hit.variant);
    },
    product: (id) => found.products.get(idKey(id)),
    gift,
    // An id no lookup takes (half typed, or not a variant's) is unknown at once.
    looked: (id) => !LOOKABLE.test(id.trim()) || found.answered.has(idKey(id)) || found.variants.has(idKey(id)),
    remember,
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
