/**
 * A widget's texts in the page's language (`translations` of each section of the widget
 * settings): the locale the app embed passes (`data-locale` on the script tag, the platform's
 * `request.locale.iso_code`), else the page's `lang`; an exact match first, else its language
 * (`pt` for `pt-BR`); a text without a translation is the section's own (the shop's default).
 * Only in the on-demand chunks: the first load draws no text.
 */

type Translatable = { translations: Record<string, Record<string, string | undefined>> };

/** The page's locale: the embed's `data-locale`, else `<html lang>`. */
export function pageLocale(): string {
  return document.querySelector<HTMLScriptElement>('script[data-locale]')?.dataset.locale || document.documentElement.lang;
}

/**
 * @example translated({ message: 'Hi', translations: { fr: { message: 'Salut' } } }, 'fr-CA').message // 'Salut'
 */
export function translated<S extends Translatable>(settings: S, locale: string): S {
  const wanted = locale.toLowerCase();
  const locales = Object.keys(settings.translations);
  const key = locales.find((name) => name.toLowerCase() === wanted) ?? locales.find((name) => name.toLowerCase() === wanted.split('-')[0]);
  const texts = key === undefined ? {} : settings.translations[key];
  const merged: Record<string, unknown> = { ...settings };
  for (const [name, text] of Object.entries(texts ?? {})) if (text) merged[name] = text;
  return merged as S;
}
