/**
 * The Widgets page's data: the shop's widget settings (GET/PUT /widgets), its plan and currency,
 * and the live rules with their gifts' names (the progress bar's steps), with the edit and save
 * of the settings and the server's error at its field.
 */
import type { WidgetSectionKey } from '@gcrs/engine';
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { Widgets } from '../api/client.ts';
import type { NoticeText } from '../Notice.tsx';
import type { Live } from './widget-preview.ts';

export function useWidgets() {
  const [widgets, setWidgets] = useState<Widgets | undefined>();
  const [plan, setPlan] = useState<string | undefined>();
  const [currency, setCurrency] = useState('USD');
  const [loadError, setLoadError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<NoticeText | undefined>();
  const [live, setLive] = useState<Live | undefined>();

  useEffect(() => {
    void api.GET('/app/api/v1/widgets').then(({ data, error }) => {
      if (data) setWidgets(data.widgets);
      else setLoadError(errorText(error, 'The widget settings could not be loaded'));
    });
    void api.GET('/app/api/v1/session').then(({ data }) => {
      if (data) {
        setPlan(data.shop.plan);
        setCurrency(data.shop.currency);
      }
    });
    // The bar's steps: the live rules, their gifts named from the catalog.
    void Promise.all([api.GET('/app/api/v1/rules'), api.GET('/app/api/v1/catalog/products', { params: { query: { limit: 100 } } })]).then(([rules, catalog]) => {
      const titles: Record<string, string> = {};
      for (const product of catalog.data?.products ?? [])
        for (const variant of product.variants) titles[variant.id] = variant.title === 'Default Title' || variant.title.trim() === '' ? product.title : `${product.title} – ${variant.title}`;
      setLive({ rules: rules.data?.rules ?? [], titles });
    });
  }, []);

  /** Sets one field of a section (`customCode` included). */
  const set = useCallback(
    (section: WidgetSectionKey | 'customCode', key: string, value: unknown) =>
      setWidgets((current) => (current ? ({ ...current, [section]: { ...current[section], [key]: value } } as Widgets) : current)),
    [],
  );

  /** Sets one text of a section in `locale` (its `translations`); empty removes it, so the default shows. */
  const translate = useCallback(
    (section: WidgetSectionKey, locale: string, key: string, text: string) =>
      setWidgets((current) => {
        if (!current) return current;
        const values = current[section];
        const { [key]: _old, ...rest }: Record<string, string | undefined> = values.translations[locale] ?? {};
        const texts = text === '' ? rest : { ...rest, [key]: text };
        return { ...current, [section]: { ...values, translations: { ...values.translations, [locale]: texts } } } as Widgets;
      }),
    [],
  );

  const save = useCallback(async () => {
    if (!widgets) return;
    setSaving(true);
    setFieldErrors({});
    const { data, error } = await api.PUT('/app/api/v1/widgets', { body: widgets });
    setSaving(false);
    if (data) {
      setWidgets(data.widgets);
      setNotice({ text: 'Widget settings saved' });
    } else {
      const path = typeof error === 'object' && error !== null && 'path' in error && Array.isArray(error.path) ? error.path.join('.') : '';
      const issue = typeof error === 'object' && error !== null && 'issue' in error && typeof error.issue === 'string' ? error.issue : errorText(error, 'Not saved');
      setFieldErrors({ [path]: issue });
      setNotice({ text: `${errorText(error, 'The widget settings could not be saved')}${path ? ` (${path})` : ''}`, error: true });
    }
  }, [widgets]);

  return { widgets, plan, currency, loadError, saving, fieldErrors, notice, setNotice, live, set, translate, save };
}
