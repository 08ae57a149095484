/**
 * Widgets: every section and field of the shop's widget settings (GET/PUT /widgets), with a
 * live preview drawn by the storefront package's own renderers (toast, progress bar, promo
 * popup, gift choice, reminder), each in its shadow root inside a preview box of this page.
 * `customCode` is edited here on every plan; GET /rules delivers it on Scale only, so below
 * Scale the section says so. The progress bar's steps are not edited here: they are the live
 * rules' subtotal thresholds (ProgressSteps.tsx), shown read-only with a link to each rule.
 */
import { Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Page, Select, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { useCallback, useEffect, useRef, useState } from 'react';
import { openGiftChoice } from '../../../packages/storefront/src/widgets/gift-choice.ts';
import { hideProgressBar, renderProgressBar } from '../../../packages/storefront/src/widgets/progress-bar.ts';
import { openPromoPopup } from '../../../packages/storefront/src/widgets/promo-popup.ts';
import { hideReminder, showReminder } from '../../../packages/storefront/src/widgets/reminder.ts';
import { showToast } from '../../../packages/storefront/src/widgets/toast.ts';
import { api, errorText } from '../api/client.ts';
import type { Widgets } from '../api/client.ts';
import { Notice } from '../Notice.tsx';
import { ProgressSteps, liveSteps } from './ProgressSteps.tsx';
import type { ListedStep, LiveRule } from './ProgressSteps.tsx';
import type { NoticeText } from '../Notice.tsx';

type SectionKey = 'toast' | 'promoPopup' | 'progressBar' | 'giftChoice' | 'reminder';
type Field =
  | { key: string; label: string; kind: 'text' | 'multiline' | 'color' | 'url'; help?: string }
  | { key: string; label: string; kind: 'number'; help?: string }
  | { key: string; label: string; kind: 'bool' }
  | { key: string; label: string; kind: 'select'; options: string[] };

const SECTIONS: Array<{ key: SectionKey; title: string; fields: Field[] }> = [
  {
    key: 'toast',
    title: 'Toast (a gift was added)',
    fields: [
      { key: 'enabled', label: 'Show the toast', kind: 'bool' },
      { key: 'message', label: 'Toast message', kind: 'text', help: '{{giftTitle}} is replaced by the gift’s name' },
      { key: 'position', label: 'Toast position', kind: 'select', options: ['top-left', 'top-center', 'top-right', 'bottom-left', 'bottom-center', 'bottom-right'] },
      { key: 'durationMs', label: 'Toast duration (ms)', kind: 'number' },
      { key: 'backgroundColor', label: 'Toast background colour', kind: 'color' },
      { key: 'textColor', label: 'Toast text colour', kind: 'color' },
    ],
  },
  {
    key: 'progressBar',
    title: 'Progress bar',
    fields: [
      { key: 'enabled', label: 'Show the progress bar', kind: 'bool' },
      { key: 'placement', label: 'Progress bar placement', kind: 'select', options: ['cart_drawer', 'cart_page', 'announcement_bar'] },
      { key: 'message', label: 'Progress message', kind: 'text', help: '{{remaining}} is replaced by the amount left, {{gift}} by the next step’s gift' },
      { key: 'completedMessage', label: 'Completed message', kind: 'text' },
      { key: 'barColor', label: 'Bar colour', kind: 'color' },
      { key: 'backgroundColor', label: 'Bar background colour', kind: 'color' },
    ],
  },
  {
    key: 'promoPopup',
    title: 'Promo popup',
    fields: [
      { key: 'enabled', label: 'Show the promo popup', kind: 'bool' },
      { key: 'trigger', label: 'Popup trigger', kind: 'select', options: ['page_load', 'exit_intent', 'add_to_cart'] },
      { key: 'delaySeconds', label: 'Popup delay (seconds)', kind: 'number' },
      { key: 'title', label: 'Popup title', kind: 'text' },
      { key: 'body', label: 'Popup text', kind: 'multiline' },
      { key: 'imageUrl', label: 'Popup image URL', kind: 'url' },
      { key: 'ctaLabel', label: 'Popup button label', kind: 'text' },
      { key: 'ctaUrl', label: 'Popup button URL', kind: 'url' },
      { key: 'showOncePerSession', label: 'Show once per session', kind: 'bool' },
    ],
  },
  {
    key: 'giftChoice',
    title: 'Gift choice',
    fields: [
      { key: 'enabled', label: 'Show the gift choice', kind: 'bool' },
      { key: 'layout', label: 'Gift choice layout', kind: 'select', options: ['modal', 'inline', 'drawer'] },
      { key: 'title', label: 'Gift choice title', kind: 'text' },
      { key: 'confirmLabel', label: 'Confirm button label', kind: 'text' },
      { key: 'allowDecline', label: 'Allow declining the gift', kind: 'bool' },
      { key: 'showPrices', label: 'Show prices', kind: 'bool' },
    ],
  },
  {
    key: 'reminder',
    title: 'Reminder',
    fields: [
      { key: 'enabled', label: 'Show the reminder', kind: 'bool' },
      { key: 'message', label: 'Reminder message', kind: 'text' },
      { key: 'showInCartDrawer', label: 'Show in the cart drawer', kind: 'bool' },
      { key: 'showOnProductPage', label: 'Show on product pages', kind: 'bool' },
      { key: 'delaySeconds', label: 'Reminder delay (seconds)', kind: 'number' },
    ],
  },
];

type Preview = SectionKey;

/** The live rules and the names of their gifts, for the progress bar's steps and its preview. */
type Live = { rules: LiveRule[]; titles: Record<string, string> };

/** A rule for the preview when no live rule has a threshold yet: spend 50.00, get a gift. */
const SAMPLE_RULE = { id: 'preview', conditionTree: { type: 'cart.subtotal_gte', value: 5000 }, giftConfig: { gifts: [{ variantId: 'preview' }] } };

/** Draws one widget with the storefront's renderer into `host` (a transformed box: `fixed` stays inside). */
function drawPreview(host: HTMLElement, widgets: Widgets, which: Preview, currency: string, live: Live | undefined): void {
  host.replaceChildren();
  hideProgressBar();
  hideReminder();
  const holder = document.createElement('div');
  host.append(holder);
  if (which === 'toast') showToast({ ...widgets.toast, durationMs: 3_600_000 }, 'Mug', undefined, holder);
  else if (which === 'progressBar') {
    holder.setAttribute('data-svc-gifts-progress', '');
    // The storefront's own steps, from the live rules, shown 60 % of the way to the first.
    const rules = live && liveSteps(live.rules).length > 0 ? live.rules : [SAMPLE_RULE];
    const results = rules.map((rule) => ({ ruleId: rule.id, campaignId: '', matched: false, reasons: ['subtotal_below_threshold'] }));
    const first = live ? (liveSteps(live.rules)[0]?.value ?? 5000) : 5000;
    const view = { subtotal: Math.round(first * 0.6), currency, baseCurrency: currency, market: undefined, locale: undefined, rules, results, giftTitles: { preview: 'Mug', ...live?.titles } };
    renderProgressBar(widgets.progressBar, view);
  } else if (which === 'promoPopup') openPromoPopup(widgets.promoPopup, { parent: holder, focus: false });
  else if (which === 'giftChoice')
    openGiftChoice(
      widgets.giftChoice,
      { type: 'choose', ruleId: 'preview', campaignId: 'preview', options: [{ variantId: 'a', quantity: 1 }, { variantId: 'b', quantity: 1 }], attributes: {} },
      (_variantId, index) => ['Mug', 'Tote bag'][index] ?? 'Gift',
      () => {},
      () => {},
      { parent: holder, focus: false },
    );
  else {
    holder.setAttribute('data-svc-gifts-reminder', '');
    showReminder({ ...widgets.reminder, delaySeconds: 0 }, () => {});
  }
}

export function WidgetsPage() {
  const [widgets, setWidgets] = useState<Widgets | undefined>();
  const [plan, setPlan] = useState<string | undefined>();
  const [currency, setCurrency] = useState('USD');
  const [loadError, setLoadError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<NoticeText | undefined>();
  const [preview, setPreview] = useState<Preview>('toast');
  const [live, setLive] = useState<Live | undefined>();
  const previewRef = useRef<HTMLDivElement>(null);

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

  useEffect(() => {
    const host = previewRef.current;
    if (!host || !widgets) return;
    // Debounced a little so typing does not redraw on every key.
    const timer = setTimeout(() => drawPreview(host, widgets, preview, currency, live), 150);
    return () => clearTimeout(timer);
  }, [widgets, preview, currency, live]);
  useEffect(
    () => () => {
      hideProgressBar();
      hideReminder();
    },
    [],
  );

  const set = (section: SectionKey, key: string, value: unknown) =>
    setWidgets((current) => (current ? ({ ...current, [section]: { ...current[section], [key]: value } } as Widgets) : current));

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

  const field = (section: SectionKey, spec: Field) => {
    const values = widgets[section] as Record<string, unknown>;
    const value = values[spec.key];
    const error = fieldErrors[`${section}.${spec.key}`];
    const id = `${section}-${spec.key}`;
    if (spec.kind === 'bool') return <Checkbox key={id} id={id} label={spec.label} checked={value === true} onChange={(checked) => set(section, spec.key, checked)} error={error} />;
    if (spec.kind === 'select')
      return <Select key={id} id={id} label={spec.label} options={spec.options} value={String(value)} onChange={(next) => set(section, spec.key, next)} error={error} />;
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
        helpText={'help' in spec ? spec.help : spec.kind === 'color' ? 'Hex, e.g. #111827' : undefined}
        error={error}
      />
    );
  };

  const steps: ListedStep[] | undefined = live && liveSteps(live.rules);

  return (
    <Page title="Widgets" subtitle="What shoppers see on the storefront" primaryAction={{ content: 'Save widgets', onAction: () => void save(), loading: saving }}>
      <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {SECTIONS.map((section) => (
              <Card key={section.key}>
                <BlockStack gap="300">
                  <InlineStack align="space-between" blockAlign="center" gap="200">
                    <Text as="h2" variant="headingMd">
                      {section.title}
                    </Text>
                    <Button onClick={() => setPreview(section.key)} pressed={preview === section.key}>
                      {`Preview ${section.title.replace(/ \(.*\)$/, '').toLowerCase()}`}
                    </Button>
                  </InlineStack>
                  <FormLayout>{section.fields.map((spec) => field(section.key, spec))}</FormLayout>
                  {section.key === 'progressBar' && <ProgressSteps steps={steps} currency={currency} titles={live?.titles ?? {}} />}
                </BlockStack>
              </Card>
            ))}
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Custom code
                </Text>
                {plan !== 'scale' && (
                  <Banner tone="warning" title="Needs the Scale plan">
                    <p>Your custom code is saved, but the storefront gets it only on the Scale plan.</p>
                  </Banner>
                )}
                <FormLayout>
                  {(['html', 'css', 'js'] as const).map((key) => (
                    <TextField
                      key={key}
                      label={`Custom ${key.toUpperCase()}`}
                      value={widgets.customCode[key] ?? ''}
                      onChange={(next) => setWidgets({ ...widgets, customCode: { ...widgets.customCode, [key]: next } })}
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
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Live preview
              </Text>
              <Text as="p" tone="subdued">
                {`Drawn by the storefront script’s own renderer: ${preview}. Shown even when the widget is off.`}
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
        </Layout.Section>
      </Layout>
    </Page>
  );
}
