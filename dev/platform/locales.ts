/**
 * The stand-in platform's locales family: `shopLocales(published: Boolean = false)`, the languages
 * enabled on a shop as the platform answers them (`ShopLocale`: `locale`, `name`, `primary`,
 * `published`, `marketWebPresences`). A shop the tests did not set speaks English only (`en`,
 * primary and published), as a new store does. `published: true` keeps the published ones.
 */
import { createFaults, withFaults } from './faults.ts';
import type { Faults } from './faults.ts';
import { answerRoot } from './selection.ts';
import type { OperationFamily } from './standin.ts';

export type StandinLocale = { locale: string; primary: boolean; published: boolean };

export type LocalesFamily = {
  family: OperationFamily;
  faults: Faults;
  /** The locales of a shop by domain; a shop without an entry has English only. */
  locales: Map<string, StandinLocale[]>;
};

const ENGLISH_ONLY: readonly StandinLocale[] = [{ locale: 'en', primary: true, published: true }];

/** The platform's human-readable name of a locale (`pt-BR` → "Portuguese (Brazil)"). */
function nameOf(locale: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}

/** @example const locales = createLocalesFamily(); locales.locales.set('a.myshopify.com', [{ locale: 'en', primary: true, published: true }]); */
export function createLocalesFamily(): LocalesFamily {
  const faults = createFaults();
  const locales = new Map<string, StandinLocale[]>();
  const family: OperationFamily = {
    rootFields: ['shopLocales'],
    answer: (call) =>
      withFaults(faults, () => {
        const own = locales.get(call.shop.domain) ?? ENGLISH_ONLY;
        return answerRoot(
          call.operation,
          {
            shopLocales: (args) =>
              own.filter((l) => args.published !== true || l.published).map((l) => ({ locale: l.locale, name: nameOf(l.locale), primary: l.primary, published: l.published, marketWebPresences: [] })),
          },
          call.variables,
        );
      }),
  };
  return { family, faults, locales };
}
