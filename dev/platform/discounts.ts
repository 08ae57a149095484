/**
 * The stand-in platform's discounts family (was test/support/fake-platform.ts): the automatic
 * app discount that runs the gift-discount function and the metafields the service sets — the
 * discount's configuration and a customer's redemption counts.
 *
 * - `discountNodes(first, query: "method:automatic AND type:app AND title:'…'")`: the shop's
 *   discounts with that title (all of the stand-in's are automatic app discounts; a `method` or
 *   `type` term naming anything else finds none).
 * - `discountAutomaticAppCreate(automaticAppDiscount)`: creates one (its metafields set too);
 *   `userErrors` when `functionId` or `title` is missing.
 * - `metafieldsSet(metafields)`: sets each on its owner (a discount of the shop or a customer).
 */
import { createFaults, withFaults } from './faults.ts';
import type { Faults } from './faults.ts';
import { answerRoot } from './selection.ts';
import type { Answer, Resolver } from './selection.ts';
import type { OperationFamily } from './standin.ts';

export type StandinDiscount = { id: string; title: string; functionId: string; startsAt: string; discountClasses: string[] };
type MetafieldInput = { ownerId?: string; namespace?: string; key?: string; type?: string; value?: string };

export type DiscountsFamily = {
  family: OperationFamily;
  faults: Faults;
  /** The discounts created per shop domain. */
  discounts: Map<string, StandinDiscount[]>;
  /** Metafield values per shop domain, by `<ownerId> <namespace>.<key>`. */
  metafields: Map<string, Map<string, string>>;
};

let nextId = 1;

/** @example const discounts = createDiscountsFamily(); discounts.discounts.get('a.myshopify.com')?.[0]?.id */
export function createDiscountsFamily(): DiscountsFamily {
  const faults = createFaults();
  const discounts = new Map<string, StandinDiscount[]>();
  const metafields = new Map<string, Map<string, string>>();

  const family: OperationFamily = {
    rootFields: ['discountNodes', 'discountAutomaticAppCreate', 'metafieldsSet'],
    answer: (call) =>
      withFaults(faults, () => {
        const domain = call.shop.domain;
        const own = discounts.get(domain) ?? [];
        discounts.set(domain, own);
        const values = metafields.get(domain) ?? new Map<string, string>();
        metafields.set(domain, values);
        const setAll = (inputs: readonly MetafieldInput[]) =>
          inputs.map((m, index) => {
            values.set(`${m.ownerId ?? ''} ${m.namespace ?? ''}.${m.key ?? ''}`, m.value ?? '');
            return { id: `gid://shopify/Metafield/${nextId++ + index}`, namespace: m.namespace ?? null, key: m.key ?? null, value: m.value ?? null };
          });

        const root: Record<string, Answer | Resolver> = {
          discountNodes: (args) => {
            const query = String(args.query ?? '');
            const quoted = /title:'((?:[^'\\]|\\.)*)'/.exec(query)?.[1];
            const title = quoted?.replace(/\\(.)/g, '$1');
            const method = /method:(\w+)/.exec(query)?.[1];
            const type = /(?:^|\s)type:(\w+)/.exec(query)?.[1];
            const kindMatches = (method === undefined || method === 'automatic') && (type === undefined || type === 'app');
            const found = kindMatches ? own.filter((d) => title === undefined || d.title === title) : [];
            const first = typeof args.first === 'number' ? args.first : 50;
            return { nodes: found.slice(0, first).map((d) => ({ id: d.id })), pageInfo: { hasNextPage: found.length > first, endCursor: null } };
          },
          discountAutomaticAppCreate: (args) => {
            const input = (args.automaticAppDiscount ?? {}) as { title?: string; functionId?: string; startsAt?: string; discountClasses?: string[]; metafields?: MetafieldInput[] };
            const userErrors = [
              ...(input.functionId ? [] : [{ field: ['automaticAppDiscount', 'functionId'], message: 'Function id can\'t be blank' }]),
              ...(input.title ? [] : [{ field: ['automaticAppDiscount', 'title'], message: 'Title can\'t be blank' }]),
            ];
            if (userErrors.length > 0) return { automaticAppDiscount: null, userErrors };
            const discount: StandinDiscount = {
              id: `gid://shopify/DiscountAutomaticNode/${nextId++}`,
              title: input.title ?? '',
              functionId: input.functionId ?? '',
              startsAt: input.startsAt ?? new Date().toISOString(),
              discountClasses: input.discountClasses ?? [],
            };
            own.push(discount);
            setAll((input.metafields ?? []).map((m) => ({ ...m, ownerId: discount.id })));
            return { automaticAppDiscount: { discountId: discount.id, title: discount.title }, userErrors: [] };
          },
          metafieldsSet: (args) => {
            const inputs = (args.metafields ?? []) as MetafieldInput[];
            const unknownOwner = inputs.findIndex((m) => m.ownerId?.startsWith('gid://shopify/DiscountAutomaticNode/') && !own.some((d) => d.id === m.ownerId));
            if (unknownOwner >= 0) return { metafields: [], userErrors: [{ field: ['metafields', String(unknownOwner), 'ownerId'], message: 'Owner does not exist' }] };
            return { metafields: setAll(inputs), userErrors: [] };
          },
        };
        return answerRoot(call.operation, root, call.variables);
      }),
  };
  return { family, faults, discounts, metafields };
}
