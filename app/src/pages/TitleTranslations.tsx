/**
 * A rule's discount title per language (`options.discountTitleTranslations`, issue 23): one
 * field per language the merchant added, the default title as its placeholder. The checkout
 * shows the buyer's language's title, else the default (docs/checkout-function.md "The title
 * in the buyer's language"). An emptied field drops its language.
 *
 * The languages the shop publishes (shop-locales.tsx) are offered as "Add French (fr)" buttons,
 * the primary one and those already there left out; the new field then takes the focus (its
 * button is gone). Typing any other code still works.
 */
import { BlockStack, Button, InlineStack, Text, TextField } from '@shopify/polaris';
import { LOCALE_PATTERN, MAX_TITLE_TRANSLATIONS } from '@gcrs/engine';
import { useContext, useState } from 'react';
import { PlainTextField as Field } from './ConditionFields.tsx';
import { languageName, ShopLocalesContext } from './shop-locales.tsx';

type Translations = Record<string, string>;

export function TitleTranslations({
  label,
  title,
  translations,
  path,
  onChange,
}: {
  label: string;
  title: string;
  translations: Translations | undefined;
  path: (string | number)[];
  onChange: (translations: Translations | undefined) => void;
}) {
  const [adding, setAdding] = useState('');
  const [addError, setAddError] = useState<string | undefined>();
  // Added but not yet written: shown as an empty field until the merchant types its title.
  const [pending, setPending] = useState<string[]>([]);
  // A language added from the shop's list: its field takes the focus its button had.
  const [focusOn, setFocusOn] = useState<string | undefined>();
  const shopLanguages = useContext(ShopLocalesContext);
  const current = translations ?? {};
  const locales = [...Object.keys(current), ...pending.filter((locale) => !(locale in current))];
  const has = (locale: string) => locales.some((l) => l.toLowerCase() === locale.toLowerCase());
  const offered = shopLanguages.state === 'loaded' ? shopLanguages.locales.filter((l) => !l.primary && LOCALE_PATTERN.test(l.locale) && !has(l.locale)).map((l) => l.locale) : [];
  const set = (locale: string, text: string) => {
    const { [locale]: _old, ...rest } = current;
    const next = text === '' ? rest : { ...rest, [locale]: text };
    setPending((list) => (text === '' ? list.filter((l) => l !== locale) : list));
    onChange(Object.keys(next).length > 0 ? next : undefined);
  };
  const add = () => {
    const locale = adding.trim();
    if (!LOCALE_PATTERN.test(locale)) return setAddError('A locale code such as fr, de or pt-BR');
    if (has(locale)) return setAddError(`${locale} is already there`);
    setAddError(undefined);
    setPending((list) => [...list, locale]);
    setAdding('');
  };
  const addOffered = (locale: string) => {
    setPending((list) => [...list, locale]);
    setFocusOn(locale);
  };
  return (
    <BlockStack gap="200">
      <Text as="h4" variant="headingSm">
        {label}: discount title in other languages
      </Text>
      <Text as="p" tone="subdued">
        Buyers read the title of their checkout’s language when you wrote one (pt-BR, else pt), else “{title}”.
      </Text>
      {locales.map((locale) => (
        <Field
          key={locale}
          label={`${label}: discount title (${locale})`}
          value={current[locale] ?? ''}
          path={[...path, locale]}
          helpText="Empty removes this language"
          focused={focusOn === locale ? true : undefined}
          onChange={(text) => set(locale, text)}
        />
      ))}
      {locales.length < MAX_TITLE_TRANSLATIONS && offered.length > 0 && (
        <div role="group" aria-label={`${label}: your shop's languages`}>
          <InlineStack gap="200" wrap blockAlign="center">
            <Text as="span" tone="subdued">
              Your shop’s languages:
            </Text>
            {offered.map((locale) => (
              <Button key={locale} onClick={() => addOffered(locale)} accessibilityLabel={`${label}: Add ${languageName(locale)} (${locale})`}>
                {`Add ${languageName(locale)} (${locale})`}
              </Button>
            ))}
          </InlineStack>
        </div>
      )}
      {shopLanguages.state === 'failed' && (
        <Text as="p" tone="subdued">
          Your shop’s languages could not be read: {shopLanguages.text}. Type a locale code instead.
        </Text>
      )}
      {locales.length < MAX_TITLE_TRANSLATIONS ? (
        <InlineStack gap="200" blockAlign="end">
          <TextField label={`${label}: add a language`} value={adding} onChange={setAdding} autoComplete="off" placeholder="fr" error={addError} />
          <Button onClick={add}>Add language</Button>
        </InlineStack>
      ) : (
        <Text as="p">At most {MAX_TITLE_TRANSLATIONS} languages.</Text>
      )}
    </BlockStack>
  );
}
