/**
 * Settings → Shop settings: the `settings` of `PATCH /app/api/v1` a merchant may change (engine,
 * checkout, data, storefront debug, low-stock threshold). The plan and its caps are the
 * operator's: shown, not editable (the mount answers 403 to `plan` and `limits`).
 */
import { PLAN_NAMES } from '@gcrs/engine';
import { Badge, Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Page, Select, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { useCallback, useState } from 'react';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema.d.ts';
import { Notice } from '../../Notice.tsx';
import type { NoticeText } from '../../Notice.tsx';
import { fieldErrorOf } from './field-errors.ts';
import { SettingsNav } from './SettingsNav.tsx';
import { useLoaded } from '../../useLoaded.ts';
import { toMajorText, toMinorUnits } from '../../words.ts';

type Shop = paths['/app/api/v1']['get']['responses'][200]['content']['application/json']['shop'];
type SettingsPatch = NonNullable<NonNullable<paths['/app/api/v1']['patch']['requestBody']>['content']['application/json']['settings']>;

/** The form's state: numbers as the text typed, so a bad entry reaches the server's check. */
type Form = {
  runOnExpressCheckout: boolean;
  runOnCartSubmission: boolean;
  useDiscountedPrices: boolean;
  evaluationDelay: string;
  stacking: 'all' | 'highest_tier';
  blockZeroValueCart: boolean;
  blockGiftOnlyCarts: boolean;
  stripZeroPriceItems: boolean;
  repairMissingGifts: boolean;
  minOrderTotalCents: string;
  minOrderTotalMessage: string;
  collectCartTokens: boolean;
  storefrontDebug: boolean;
  lowStockThreshold: string;
};

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
const num = (value: unknown) => (typeof value === 'number' ? String(value) : '');

function formOf(shop: Shop): Form {
  const { engine, checkout, data, storefront } = { engine: record(shop.settings.engine), checkout: record(shop.settings.checkout), data: record(shop.settings.data), storefront: record(shop.settings.storefront) };
  return {
    runOnExpressCheckout: bool(engine.runOnExpressCheckout, true),
    runOnCartSubmission: bool(engine.runOnCartSubmission, true),
    useDiscountedPrices: bool(engine.useDiscountedPrices, false),
    evaluationDelay: num(engine.evaluationDelay),
    stacking: engine.stacking === 'highest_tier' ? 'highest_tier' : 'all',
    blockZeroValueCart: bool(checkout.blockZeroValueCart, false),
    blockGiftOnlyCarts: bool(checkout.blockGiftOnlyCarts, true),
    stripZeroPriceItems: bool(checkout.stripZeroPriceItems, false),
    repairMissingGifts: bool(checkout.repairMissingGifts, true),
    // Typed and shown in major units of the shop's currency ("50" is 50.00); stored in minor units.
    minOrderTotalCents: typeof checkout.minOrderTotalCents === 'number' ? toMajorText(checkout.minOrderTotalCents, shop.currency) : '',
    minOrderTotalMessage: typeof checkout.minOrderTotalMessage === 'string' ? checkout.minOrderTotalMessage : '',
    collectCartTokens: bool(data.collectCartTokens, true),
    storefrontDebug: bool(storefront.debug, false),
    lowStockThreshold: num(shop.settings.lowStockThreshold),
  };
}

// An empty or non-numeric entry goes as NaN, which JSON writes as null: the server names the field.
const toNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function patchOf(form: Form, currency: string): SettingsPatch {
  const guard = form.minOrderTotalCents.trim() === '' ? null : (toMinorUnits(form.minOrderTotalCents, currency) ?? Number.NaN);
  return {
    engine: {
      runOnExpressCheckout: form.runOnExpressCheckout,
      runOnCartSubmission: form.runOnCartSubmission,
      useDiscountedPrices: form.useDiscountedPrices,
      evaluationDelay: toNumber(form.evaluationDelay),
      stacking: form.stacking,
    },
    checkout: {
      blockZeroValueCart: form.blockZeroValueCart,
      blockGiftOnlyCarts: form.blockGiftOnlyCarts,
      stripZeroPriceItems: form.stripZeroPriceItems,
      repairMissingGifts: form.repairMissingGifts,
      minOrderTotalCents: guard,
      minOrderTotalMessage: guard === null || form.minOrderTotalMessage.trim() === '' ? null : form.minOrderTotalMessage,
    },
    data: { collectCartTokens: form.collectCartTokens },
    storefront: { debug: form.storefrontDebug },
    lowStockThreshold: toNumber(form.lowStockThreshold),
  };
}

/** The route's loader (app/src/pages/settings/routes.tsx). */
export const loadShopSettings = () => api.GET('/app/api/v1');

export function ShopSettingsPage() {
  const { value: loaded, error: loadError, reload: load } = useLoaded<typeof loadShopSettings>('The shop could not be loaded');
  // The shop as the last PATCH answered it (the whole shop: nothing is read again), else as loaded.
  const [saved, setShop] = useState<Shop | undefined>();
  const shop = saved ?? loaded?.shop;
  const [edited, setForm] = useState<Form | undefined>();
  const form = edited ?? (shop ? formOf(shop) : undefined);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<NoticeText | undefined>();

  const save = useCallback(async () => {
    if (!form || !shop) return;
    setSaving(true);
    const { data, error } = await api.PATCH('/app/api/v1', { body: { settings: patchOf(form, shop.currency) } });
    setSaving(false);
    if (data) {
      setShop(data.shop);
      setForm(formOf(data.shop));
      setErrors({});
      setNotice({ text: 'Shop settings saved' });
      return;
    }
    const { field, text } = fieldErrorOf(error, 'The settings could not be saved');
    const key = field?.replace(/^settings\./, '');
    if (key && FIELD_KEYS.has(key)) {
      setErrors({ [key]: text });
      setNotice({ text: 'Check the field marked below', error: true });
    } else {
      setErrors({});
      setNotice({ text, error: true });
    }
  }, [form]);

  const set = <K extends keyof Form>(key: K) => (value: Form[K]) => setForm((current) => {
    const base = current ?? form;
    return base ? { ...base, [key]: value } : base;
  });

  let body;
  if (loadError) {
    body = (
      <Banner tone="critical" title="The shop could not be loaded" action={{ content: 'Try again', onAction: () => void load() }}>
        <p>{loadError}</p>
      </Banner>
    );
  } else if (!shop || !form) {
    body = (
      <Card>
        <SkeletonBodyText lines={6} />
      </Card>
    );
  } else {
    body = (
      <BlockStack gap="400">
        <Card>
          <BlockStack gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h2" variant="headingMd">
                Plan
              </Text>
              <Badge tone="info">{PLAN_NAMES[shop.plan]}</Badge>
            </InlineStack>
            <Text as="p" tone="subdued">
              Up to {shop.limits.campaigns} campaigns, {shop.limits.activeCampaigns} live at once, {shop.limits.rules} rules each. Currency {shop.currency}, time
              zone {shop.timezone}. The limits are set by the service's operator; the plan is under Plan.
            </Text>
          </BlockStack>
        </Card>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <BlockStack gap="400">
            <Card>
              <FormLayout>
                <Text as="h2" variant="headingMd">
                  Gift engine
                </Text>
                <Checkbox label="Run on express checkout" checked={form.runOnExpressCheckout} onChange={set('runOnExpressCheckout')} />
                <Checkbox label="Run when the cart is submitted" checked={form.runOnCartSubmission} onChange={set('runOnCartSubmission')} />
                <Checkbox label="Use discounted prices for cart totals" checked={form.useDiscountedPrices} onChange={set('useDiscountedPrices')} />
                <TextField
                  label="Evaluation delay (milliseconds)"
                  type="number"
                  value={form.evaluationDelay}
                  onChange={set('evaluationDelay')}
                  autoComplete="off"
                  helpText="0 to 60000: how long the storefront waits after a cart change before evaluating."
                  error={errors['engine.evaluationDelay']}
                />
                <Select
                  label="When several rules match"
                  options={[
                    { label: 'Every matching rule gives its gifts', value: 'all' },
                    { label: 'Per campaign, only the highest tier gives', value: 'highest_tier' },
                  ]}
                  value={form.stacking}
                  onChange={(value) => set('stacking')(value === 'highest_tier' ? 'highest_tier' : 'all')}
                  error={errors['engine.stacking']}
                />
              </FormLayout>
            </Card>
            <Card>
              <FormLayout>
                <Text as="h2" variant="headingMd">
                  Checkout
                </Text>
                <Checkbox label="Block carts whose total is zero" checked={form.blockZeroValueCart} onChange={set('blockZeroValueCart')} />
                <Checkbox label="Block carts that hold only gifts" checked={form.blockGiftOnlyCarts} onChange={set('blockGiftOnlyCarts')} />
                <Checkbox label="Remove zero-price items that are not gifts" checked={form.stripZeroPriceItems} onChange={set('stripZeroPriceItems')} />
                <Checkbox
                  label="Add missing gifts to paid orders"
                  helpText="An express or wallet checkout can skip the cart: the app then adds the automatic gift to the paid order, without emailing the customer."
                  checked={form.repairMissingGifts}
                  onChange={set('repairMissingGifts')}
                />
                <TextField
                  label="Minimum order total for gifts"
                  inputMode="decimal"
                  suffix={shop.currency}
                  value={form.minOrderTotalCents}
                  onChange={set('minOrderTotalCents')}
                  autoComplete="off"
                  helpText={`In ${shop.currency}, e.g. ${toMajorText(5000, shop.currency)}. Leave empty for no minimum.`}
                  error={
                    form.minOrderTotalCents.trim() !== '' && toMinorUnits(form.minOrderTotalCents, shop.currency) === undefined
                      ? `Enter an amount in ${shop.currency}, e.g. ${toMajorText(5000, shop.currency)}`
                      : errors['checkout.minOrderTotalCents']
                  }
                />
                <TextField
                  label="Message when the minimum is not reached"
                  value={form.minOrderTotalMessage}
                  onChange={set('minOrderTotalMessage')}
                  autoComplete="off"
                  disabled={form.minOrderTotalCents.trim() === ''}
                  error={errors['checkout.minOrderTotalMessage']}
                />
              </FormLayout>
            </Card>
            <Card>
              <FormLayout>
                <Text as="h2" variant="headingMd">
                  Data and storefront
                </Text>
                <Checkbox label="Collect cart tokens for analytics" checked={form.collectCartTokens} onChange={set('collectCartTokens')} />
                <Checkbox
                  label="Allow evaluation traces on the storefront (?svc_debug=1)"
                  checked={form.storefrontDebug}
                  onChange={set('storefrontDebug')}
                />
                <TextField
                  label="Low-stock threshold"
                  type="number"
                  value={form.lowStockThreshold}
                  onChange={set('lowStockThreshold')}
                  autoComplete="off"
                  helpText="A gift with this many units or fewer is reported as low on stock."
                  error={errors.lowStockThreshold}
                />
              </FormLayout>
            </Card>
            <InlineStack align="end" gap="200">
              <Button
                onClick={() => {
                  setForm(formOf(shop));
                  setErrors({});
                }}
              >
                Discard changes
              </Button>
              <Button submit variant="primary" loading={saving}>
                Save settings
              </Button>
            </InlineStack>
          </BlockStack>
        </form>
      </BlockStack>
    );
  }

  return (
    <Page title="Settings" subtitle="Shop settings">
      <SettingsNav current="shop" />
      <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
      {body}
    </Page>
  );
}

/** The fields that show an error of their own (a 400's `path` without `settings.`). */
const FIELD_KEYS: ReadonlySet<string> = new Set([
  'engine.evaluationDelay',
  'engine.stacking',
  'checkout.minOrderTotalCents',
  'checkout.minOrderTotalMessage',
  'lowStockThreshold',
]);
