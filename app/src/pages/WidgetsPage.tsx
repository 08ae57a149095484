/**
 * Widgets: every section and field of the shop's widget settings, the form read from the
 * engine's widget settings schema (widget-fields.ts), with a live preview drawn by the storefront
 * package's own renderers (widget-preview.ts). The preview stays in view while editing: beside
 * the form and sticky on a wide screen, above the form on a narrow one, where each section's
 * Preview button brings it back into view. `customCode` is edited here on every plan; GET /rules
 * delivers it on Scale only, so below Scale the section says so. The progress bar's steps are not
 * edited here: they are the live rules' subtotal thresholds (ProgressSteps.tsx), shown read-only
 * with a link to each rule. The data is useWidgets.ts. Languages: with one chosen, the
 * shopper-facing texts edit its translations (the default text as placeholder) and the preview
 * speaks it; the storefront picks the page's locale.
 */
import { PLANS, widgetLocaleSchema } from '@gcrs/engine';
import type { WidgetSectionKey } from '@gcrs/engine';
import { Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Page, Select, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { useEffect, useRef, useState } from 'react';
import { Notice } from '../Notice.tsx';
import { ProgressSteps, liveSteps } from './ProgressSteps.tsx';
import { useWidgets } from './useWidgets.ts';
import { SECTIONS } from './widget-fields.ts';
import type { Field } from './widget-fields.ts';
import { clearPreview, drawPreview } from './widget-preview.ts';

/**
 * Form and preview side by side from 48em, the preview sticky below the Frame's fixed top bar
 * (3.5rem); below 48em the preview above the form.
 */
const WIDE = '(min-width: 48em)';
const LAYOUT_CSS = `.svc-widgets{display:grid;gap:var(--p-space-400);grid-template-columns:minmax(0,1fr)}
.svc-widgets-preview{order:-1;scroll-margin-top:calc(3.5rem + var(--p-space-200))}
@media ${WIDE}{.svc-widgets{grid-template-columns:minmax(0,2fr) minmax(0,1fr)}.svc-widgets-preview{order:0;position:sticky;top:calc(3.5rem + var(--p-space-400));align-self:start}}`;

export function WidgetsPage() {
  const { widgets, plan, currency, loadError, saving, fieldErrors, notice, setNotice, live, set, translate, save } = useWidgets();
  const [preview, setPreview] = useState<WidgetSectionKey>('toast');
  /** The language edited: '' for the shop's default texts. */
  const [locale, setLocale] = useState('');
  const [added, setAdded] = useState<string[]>([]);
  const [newLocale, setNewLocale] = useState('');
  const [localeError, setLocaleError] = useState<string | undefined>();
  const previewRef = useRef<HTMLDivElement>(null);
  const cardRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = previewRef.current;
    if (!host || !widgets) return;
    // Debounced a little so typing does not redraw on every key.
    const timer = setTimeout(() => drawPreview(host, widgets, preview, currency, live, locale), 150);
    return () => clearTimeout(timer);
  }, [widgets, preview, currency, live, locale]);
  useEffect(() => clearPreview, []);

  if (loadError)
    return (
      <Page title="Widgets">
        <Banner tone="critical" title="The widget settings could not be loaded">
          <p>{loadError}</p>
        </Banner>
      </Page>
    );
  if (!widgets)
    return (
      <Page title="Widgets">
        <Card>
          <SkeletonBodyText lines={6} />
        </Card>
      </Page>
    );

  const locales = [...new Set([...SECTIONS.flatMap((section) => Object.keys(widgets[section.key].translations)), ...added])].sort();
  const addLocale = () => {
    const parsed = widgetLocaleSchema.safeParse(newLocale.trim());
    if (!parsed.success) return setLocaleError('A locale code such as fr, de or pt-BR');
    setLocaleError(undefined);
    setAdded((current) => [...current, parsed.data]);
    setLocale(parsed.data);
    setNewLocale('');
  };

  const field = (section: WidgetSectionKey, spec: Field, translatable: boolean) => {
    const base = (widgets[section] as Record<string, unknown>)[spec.key];
    if (translatable && locale !== '' && (spec.kind === 'text' || spec.kind === 'multiline')) {
      const texts: Record<string, string | undefined> = widgets[section].translations[locale] ?? {};
      const id = `${section}-${spec.key}-${locale}`;
      return (
        <TextField
          key={id}
          id={id}
          label={`${spec.label} (${locale})`}
          value={texts[spec.key] ?? ''}
          placeholder={typeof base === 'string' ? base : undefined}
          onChange={(next) => translate(section, locale, spec.key, next)}
          multiline={spec.kind === 'multiline' ? 3 : undefined}
          autoComplete="off"
          helpText="Empty: the default text"
          error={fieldErrors[`${section}.translations.${locale}.${spec.key}`]}
        />
      );
    }
    const value = base;
    const error = fieldErrors[`${section}.${spec.key}`];
    const id = `${section}-${spec.key}`;
    if (spec.kind === 'bool') return <Checkbox key={id} id={id} label={spec.label} helpText={spec.help} checked={value === true} onChange={(checked) => set(section, spec.key, checked)} error={error} />;
    if (spec.kind === 'select')
      return <Select key={id} id={id} label={spec.label} helpText={spec.help} options={spec.options} value={String(value)} onChange={(next) => set(section, spec.key, next)} error={error} />;
    if (spec.kind === 'number')
      return <TextField key={id} id={id} label={spec.label} type="number" value={String(value ?? '')} onChange={(next) => set(section, spec.key, next === '' ? 0 : Number(next))} autoComplete="off" error={error} />;
    return (
      <TextField
        key={id}
        id={id}
        label={spec.label}
        value={typeof value === 'string' ? value : ''}
        onChange={(next) => set(section, spec.key, spec.kind === 'url' && next === '' ? null : next)}
        multiline={spec.kind === 'multiline' ? 3 : undefined}
        autoComplete="off"
        helpText={spec.help ?? (spec.kind === 'color' ? 'Hex, e.g. #111827' : undefined)}
        error={error}
      />
    );
  };

  const show = (section: WidgetSectionKey) => {
    setPreview(section);
    // Beside the form it is always in view; above it, the page scrolls back up to it.
    if (!matchMedia(WIDE).matches) cardRef.current?.scrollIntoView({ block: 'start' });
  };
  const previewTitle = SECTIONS.find((section) => section.key === preview)?.title ?? preview;

  return (
    <Page title="Widgets" subtitle="What shoppers see on the storefront" primaryAction={{ content: 'Save widgets', onAction: () => void save(), loading: saving }}>
      <style>{LAYOUT_CSS}</style>
      <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
      <div className="svc-widgets">
        <BlockStack gap="400">
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Languages
              </Text>
              <Text as="p" tone="subdued">
                Shoppers read the texts in their page’s language when you wrote them, else the default ones.
              </Text>
              <Select
                label="Texts being edited"
                options={[{ label: 'Default (your shop’s language)', value: '' }, ...locales.map((code) => ({ label: code, value: code }))]}
                value={locale}
                onChange={setLocale}
              />
              <InlineStack gap="200" blockAlign="end">
                <TextField label="Add a language" value={newLocale} onChange={setNewLocale} autoComplete="off" placeholder="fr" error={localeError} />
                <Button onClick={addLocale}>Add language</Button>
              </InlineStack>
            </BlockStack>
          </Card>
          {SECTIONS.map((section) => (
            <Card key={section.key}>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center" gap="200">
                  <Text as="h2" variant="headingMd">
                    {section.title}
                  </Text>
                  <Button onClick={() => show(section.key)} pressed={preview === section.key}>
                    {`Preview ${section.title.replace(/ \(.*\)$/, '').toLowerCase()}`}
                  </Button>
                </InlineStack>
                <FormLayout>{section.fields.map((spec) => field(section.key, spec, section.translatable.includes(spec.key)))}</FormLayout>
                {section.key === 'progressBar' && <ProgressSteps steps={live && liveSteps(live.rules)} currency={currency} titles={live?.titles ?? {}} />}
              </BlockStack>
            </Card>
          ))}
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Custom code
              </Text>
              {!(plan !== undefined && PLANS[plan as keyof typeof PLANS]?.customCode) && (
                <Banner tone="warning" title="Needs the Scale plan">
                  <p>Your custom code is saved, but the storefront gets it only on the Scale plan.</p>
                </Banner>
              )}
              <FormLayout>
                {(['html', 'css', 'js'] as const).map((key) => (
                  <TextField
                    key={key}
                    label={`Custom ${key.toUpperCase()}`}
                    value={widgets.customCode[key]}
                    onChange={(next) => set('customCode', key, next)}
                    multiline={3}
                    monospaced
                    autoComplete="off"
                    error={fieldErrors[`customCode.${key}`]}
                  />
                ))}
              </FormLayout>
            </BlockStack>
          </Card>
          <InlineStack>
            <Button variant="primary" onClick={() => void save()} loading={saving}>
              Save widgets
            </Button>
          </InlineStack>
        </BlockStack>
        <div className="svc-widgets-preview" ref={cardRef}>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Live preview
              </Text>
              <Text as="p" tone="subdued">
                {`Drawn by the storefront script’s own renderer: ${previewTitle}. Shown even when the widget is off.`}
              </Text>
              <div
                ref={previewRef}
                data-testid="widget-preview"
                aria-label="Widget preview"
                role="region"
                style={{ position: 'relative', transform: 'translateZ(0)', overflow: 'hidden', minHeight: 320, border: '1px dashed var(--p-color-border)', borderRadius: 8, background: '#f9fafb' }}
              />
            </BlockStack>
          </Card>
        </div>
      </div>
    </Page>
  );
}
