/**
 * The languages the shop publishes (GET /shop-locales, docs/merchant-admin.md "The shop's
 * languages"), read once per editor and shared by every rule's translations through a context:
 * the editor offers the published ones it has no title for yet. A shop without a platform
 * connection has none; a failed read is said beside the field, which still takes any code.
 */
import { createContext, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { api, errorText } from '../api/client.ts';

export type ShopLanguages =
  | { state: 'loading' }
  | { state: 'loaded'; locales: Array<{ locale: string; primary: boolean }> }
  | { state: 'failed'; text: string };

/** Outside an editor (no provider): no languages to offer. */
export const ShopLocalesContext = createContext<ShopLanguages>({ state: 'loaded', locales: [] });

export function ShopLocalesProvider({ children }: { children: ReactNode }) {
  const [languages, setLanguages] = useState<ShopLanguages>({ state: 'loading' });
  useEffect(() => {
    let mounted = true;
    api
      .GET('/app/api/v1/shop-locales')
      .then(({ data, error }) => {
        if (!mounted) return;
        if (data) return setLanguages({ state: 'loaded', locales: data.locales });
        const issue = typeof error === 'object' && error !== null && 'issue' in error && typeof error.issue === 'string' ? ` (${error.issue})` : '';
        setLanguages({ state: 'failed', text: `${errorText(error, 'The shop\u2019s languages could not be read')}${issue}` });
      })
      .catch(() => mounted && setLanguages({ state: 'failed', text: 'The service did not answer' }));
    return () => {
      mounted = false;
    };
  }, []);
  return <ShopLocalesContext.Provider value={languages}>{children}</ShopLocalesContext.Provider>;
}

const names = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' });
  } catch {
    return undefined;
  }
})();

/**
 * A locale's name in English, the admin's language; the code itself when the browser has none.
 *
 * @example languageName('pt-BR') // 'Brazilian Portuguese'
 */
export function languageName(locale: string): string {
  try {
    return names?.of(locale) ?? locale;
  } catch {
    return locale;
  }
}
