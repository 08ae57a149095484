/**
 * A rule's discount title per language (`options.discountTitleTranslations`, issue 23): one
 * field per language the merchant added, the default title as its placeholder. The checkout
 * shows the buyer's language's title, else the default (docs/checkout-function.md "The title
 * in the buyer's language"). An emptied field drops its language.
 */
import { BlockStack, Button, InlineStack, Text, TextField } from '@shopify/polaris';
import { LOCALE_PATTERN, MAX_TITLE_TRANSLATIONS } from '@gcrs/engine';
import { useState } from 'react';
import { PlainTextField as Field } from './ConditionFields.tsx';

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
  const current = translations ?? {};
  const locales = [...Object.keys(current), ...pending.filter((locale) => !(locale in current))];
  const set = (locale: string, text: string) => {
    const { [locale]: _old, ...rest } = current;
    const next = text === '' ? rest : { ...rest, [locale]: text };
    setPending((list) => (text === '' ? list.filter((l) => l !== locale) : list));
    onChange(Object.keys(next).length > 0 ? next : undefined);
  };
  const add = () => {
    const locale = adding.trim();
    if (!LOCALE_PATTERN.test(locale)) return setAddError('A locale code such as fr, de or pt-BR');
    if (locales.some((l) => l.toLowerCase() === locale.toLowerCase())) return setAddError(`${locale} is already there`);
    setAddError(undefined);
    setPending((list) => [...list, locale]);
    setAdding('');
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
          onChange={(text) => set(locale, text)}
        />
      ))}
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
