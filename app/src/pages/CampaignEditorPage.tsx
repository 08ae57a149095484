/**
 * The campaign editor (`#/campaigns/new`, `#/campaigns/<id>`): name, draft, schedule and rules;
 * per rule its name, enabled, condition tree (ConditionTreeBuilder), gifts and options (stacking,
 * the limit per customer). Saving a new campaign is an import of one (POST /campaigns/import), an
 * existing one a PUT; the server's 400 is shown at the field its `path` names. A JSON view shows
 * exactly what is sent.
 *
 * Gifts are variant ids, chosen from the catalog with GiftPicker (stock shown) or typed in for a
 * variant the catalog mirror does not know; enabling the campaign checks each gift's stock.
 * Budgets (the campaign's and each rule's: max gifts per day, week, month or in total) show what
 * the current window used, from the read's `budgetUsage` (docs/promotions.md "Budgets").
 */
import { BlockStack, Box, Button, Card, Checkbox, FormLayout, InlineGrid, InlineStack, Layout, Page, Select, Text, TextField } from '@shopify/polaris';
import type { ConditionNode } from '@gcrs/engine';
import { useCallback, useContext, useEffect, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { Notice } from '../Notice.tsx';
import { useHeadingFocus } from '../useHeadingFocus.ts';
import type { NoticeText } from '../Notice.tsx';
import { fromLocalInput, toLocalInput } from './CampaignsPage.tsx';
import { CampaignLoading, saveCampaign } from './campaign-io.tsx';
import type { CampaignBody, LoadedCampaign } from './campaign-io.tsx';
import { GiftPicker } from './GiftPicker.tsx';
import { rulesToLadder } from './ladder/ladder-rules.ts';
import { ConditionNodeEditor, ErrorContext, LockedLeaves, MoneyField, MoneyOverridesField, NumberField, ShopCurrency, defaultLeaf, useErrorAt } from './ConditionTreeBuilder.tsx';
import type { FieldError, Plan } from './ConditionTreeBuilder.tsx';

type RuleBody = CampaignBody['rules'][number];
type Loaded = LoadedCampaign;
type Budget = NonNullable<CampaignBody['budget']>;
type Usage = NonNullable<Loaded['budgetUsage']>['rules'][string];

const WINDOW_OPTIONS = [
  { label: 'In total', value: 'total' },
  { label: 'Per day', value: 'day' },
  { label: 'Per week (from Monday)', value: 'week' },
  { label: 'Per month', value: 'month' },
];
const WINDOW_WORDS: Record<NonNullable<Budget['window']>, string> = { total: 'in total', day: 'today', week: 'this week', month: 'this month' };

/** "Used 12 of 50 this week", and whether the budget is spent; nothing before the first save. */
function usageText(usage: Usage | null | undefined, budget: Budget): string | undefined {
  if (!usage || usage.window !== (budget.window ?? 'total')) return undefined;
  const text = `Used ${usage.used} of ${budget.maxGifts} ${WINDOW_WORDS[budget.window ?? 'total']}`;
  return usage.used >= budget.maxGifts ? `${text}: spent, no gift is offered until ${budget.window === 'total' ? 'the budget is raised' : 'the window ends or the budget is raised'}` : text;
}

/** Max gifts and window of one budget (the campaign's or a rule's); off = no budget. */
function BudgetFields({ label, budget, usage, path, onChange }: { label: string; budget: Budget | undefined; usage: Usage | null | undefined; path: (string | number)[]; onChange: (budget: Budget | undefined) => void }) {
  const used = budget ? usageText(usage, budget) : undefined;
  return (
    <BlockStack gap="200">
      <Checkbox label={`${label}: limit the gifts given`} checked={budget !== undefined} onChange={(on) => onChange(on ? { maxGifts: 100, window: 'total' } : undefined)} />
      {budget && (
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="200">
          <NumberField label={`${label}: at most gifts`} value={budget.maxGifts} path={[...path, 'maxGifts']} helpText="Gift units, counted when orders complete" onChange={(maxGifts) => onChange({ ...budget, maxGifts: maxGifts as number })} />
          <Select label={`${label}: counted`} value={budget.window ?? 'total'} options={WINDOW_OPTIONS} onChange={(window) => onChange({ ...budget, window: window as NonNullable<Budget['window']> })} />
        </InlineGrid>
      )}
      {used && (
        <Text as="p" tone={usage && usage.used >= (budget?.maxGifts ?? 0) ? 'critical' : 'subdued'}>
          {used}
        </Text>
      )}
    </BlockStack>
  );
}

const newRule = (index: number): RuleBody => ({
  name: `Rule ${index + 1}`,
  enabled: true,
  conditionTree: { type: 'AND', children: [defaultLeaf('cart.subtotal_gte')] },
  giftConfig: { type: 'fixed', gifts: [{ variantId: '', quantity: 1 }], fallbackOnOOS: false },
  options: { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' },
});

const NEW_CAMPAIGN: CampaignBody = { name: '', enabled: false, isDraft: true, startAt: null, endAt: null, rules: [newRule(0)] };

/** The PUT body of a loaded campaign: what the editor edits. */
function bodyOf(campaign: Loaded): CampaignBody {
  return {
    name: campaign.name,
    enabled: campaign.enabled,
    isDraft: campaign.isDraft,
    startAt: campaign.startAt,
    endAt: campaign.endAt,
    ...(campaign.budget ? { budget: campaign.budget } : {}),
    rules: campaign.rules.map(({ id, name, enabled, conditionTree, giftConfig, options }) => ({ id, name, enabled, conditionTree, giftConfig, options })),
  };
}

/** Where a server path points, in the merchant's words (for the banner above the form). */
function describePath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '';
  const [first, index, ...rest] = path;
  if (first === 'rules' && typeof index === 'number') return ` (rule ${index + 1}${rest.length ? `: ${rest.join(' › ')}` : ''})`;
  return ` (${path.join(' › ')})`;
}

function Field({ label, value, onChange, path, type, helpText }: { label: string; value: string; onChange: (value: string) => void; path: (string | number)[]; type?: 'text' | 'datetime-local'; helpText?: string }) {
  const error = useErrorAt(path);
  return <TextField label={label} value={value} onChange={onChange} error={error} type={type} helpText={helpText} autoComplete="off" />;
}

function RuleEditor({ rule, index, plan, usage, onChange, onRemove }: { rule: RuleBody; index: number; plan: Plan; usage: Usage | undefined; onChange: (rule: RuleBody) => void; onRemove: () => void }) {
  const at = (...rest: (string | number)[]) => ['rules', index, ...rest];
  const label = `Rule ${index + 1}`;
  const currency = useContext(ShopCurrency);
  const gifts = rule.giftConfig.gifts;
  const setGifts = (next: typeof gifts) => onChange({ ...rule, giftConfig: { ...rule.giftConfig, gifts: next } });
  const options = rule.options;
  const setOptions = (patch: Partial<RuleBody['options']>) => {
    const next: Record<string, unknown> = { ...options, ...patch };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    onChange({ ...rule, options: next as RuleBody['options'] });
  };
  const per = rule.giftConfig.per;
  const setPer = (next: typeof per) => {
    const { per: _old, ...giftConfig } = rule.giftConfig;
    onChange({ ...rule, giftConfig: next ? { ...giftConfig, per: next } : giftConfig });
  };
  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            {label}: {rule.name || 'unnamed'}
          </Text>
          <Button tone="critical" onClick={onRemove} accessibilityLabel={`Remove ${label}`}>
            Remove rule
          </Button>
        </InlineStack>
        <FormLayout>
          <Field label={`${label} name`} value={rule.name} path={at('name')} onChange={(name) => onChange({ ...rule, name })} />
          <Checkbox label={`${label} is enabled`} checked={rule.enabled} onChange={(enabled) => onChange({ ...rule, enabled })} />
        </FormLayout>

        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Conditions
          </Text>
          <LockedLeaves plan={plan} />
          <ConditionNodeEditor
            node={rule.conditionTree as ConditionNode}
            onChange={(conditionTree) => onChange({ ...rule, conditionTree: conditionTree as RuleBody['conditionTree'] })}
            plan={plan}
            path={at('conditionTree')}
            name={`${label} condition`}
            depth={0}
          />
        </BlockStack>

        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Gifts
          </Text>
          <Text as="p" tone="subdued">
            Choose each gift from the catalog, or type its variant id (gid://shopify/ProductVariant/…) when the catalog does not have it. Enabling the campaign checks each gift's stock and status.
          </Text>
          {gifts.map((gift, giftIndex) => (
            <InlineGrid key={giftIndex} columns={{ xs: 1, md: ['twoThirds', 'oneThird'] }} gap="200">
              <BlockStack gap="100">
                <Field
                  label={`${label} gift ${giftIndex + 1} variant id`}
                  value={gift.variantId}
                  path={at('giftConfig', 'gifts', giftIndex, 'variantId')}
                  onChange={(variantId) => setGifts(gifts.map((g, i) => (i === giftIndex ? { ...g, variantId } : g)))}
                />
                <GiftPicker label={`${label} gift ${giftIndex + 1}`} onPick={({ variantId }) => setGifts(gifts.map((g, i) => (i === giftIndex ? { ...g, variantId } : g)))} />
              </BlockStack>
              <BlockStack gap="100">
                <NumberField
                  label={`${label} gift ${giftIndex + 1} quantity`}
                  value={gift.quantity}
                  path={at('giftConfig', 'gifts', giftIndex, 'quantity')}
                  onChange={(quantity) => setGifts(gifts.map((g, i) => (i === giftIndex ? { ...g, quantity: quantity as number } : g)))}
                />
                {gifts.length > 1 && (
                  <Button variant="plain" tone="critical" onClick={() => setGifts(gifts.filter((_, i) => i !== giftIndex))} accessibilityLabel={`Remove gift ${giftIndex + 1} of ${label}`}>
                    Remove gift
                  </Button>
                )}
              </BlockStack>
            </InlineGrid>
          ))}
          <InlineStack>
            <Button onClick={() => setGifts([...gifts, { variantId: '', quantity: 1 }])} accessibilityLabel={`Add gift to ${label}`}>
              Add gift
            </Button>
          </InlineStack>
          <Checkbox
            label={`${label}: when a gift is out of stock, give the next one`}
            checked={rule.giftConfig.fallbackOnOOS ?? false}
            onChange={(fallbackOnOOS) => onChange({ ...rule, giftConfig: { ...rule.giftConfig, fallbackOnOOS } })}
          />
          <Checkbox label={`${label}: repeat the gift`} checked={per !== undefined} onChange={(on) => setPer(on ? { every: 1, of: 'items', max: 1 } : undefined)} />
          {per && (
            <InlineGrid columns={{ xs: 1, md: 3 }} gap="200">
              {per.of === 'subtotal' ? (
                <MoneyField label={`${label}: one gift set per`} currency={currency} value={per.every} path={at('giftConfig', 'per', 'every')} onChange={(every) => setPer({ ...per, every: every as number })} />
              ) : (
                <NumberField label={`${label}: one gift set per`} value={per.every} path={at('giftConfig', 'per', 'every')} onChange={(every) => setPer({ ...per, every: every as number })} />
              )}
              <Select
                label={`${label}: counted in`}
                value={per.of}
                options={[
                  { label: 'Items', value: 'items' },
                  { label: `Subtotal (${currency})`, value: 'subtotal' },
                ]}
                onChange={(of) => setPer({ ...per, of: of as 'items' | 'subtotal' })}
              />
              <NumberField label={`${label}: at most sets`} value={per.max} path={at('giftConfig', 'per', 'max')} onChange={(max) => setPer({ ...per, max: max as number })} />
              {per.of === 'subtotal' && (
                <MoneyOverridesField
                  label={`${label}: subtotal step per currency`}
                  value={per.currencyOverrides}
                  path={at('giftConfig', 'per', 'currencyOverrides')}
                  helpText="Optional. One per line, in that currency: EUR=45.00"
                  onChange={(currencyOverrides) => setPer({ ...per, ...(currencyOverrides ? { currencyOverrides } : { currencyOverrides: undefined }) })}
                />
              )}
            </InlineGrid>
          )}
        </BlockStack>

        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Options
          </Text>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="200">
            <Select
              label={`${label}: how the gift is added`}
              value={options.actionType ?? 'auto_add'}
              options={[
                { label: 'Added automatically', value: 'auto_add' },
                { label: "Shopper's choice", value: 'customer_choice' },
              ]}
              onChange={(actionType) => setOptions({ actionType: actionType as 'auto_add' | 'customer_choice' })}
            />
            <Select label={`${label}: discount method`} value={options.discountMethod ?? 'automatic'} options={[{ label: 'Automatic discount', value: 'automatic' }]} onChange={() => setOptions({ discountMethod: 'automatic' })} />
            <Select
              label={`${label}: discount type`}
              value={options.discountType ?? 'percentage'}
              options={[
                { label: 'Percentage', value: 'percentage' },
                { label: `Fixed amount (${currency})`, value: 'fixed_amount' },
              ]}
              onChange={(discountType) => setOptions({ discountType: discountType as 'percentage' | 'fixed_amount' })}
            />
            {options.discountType === 'fixed_amount' ? (
              <MoneyField label={`${label}: discount value`} currency={currency} value={options.discountValue} path={at('options', 'discountValue')} helpText={`Off each gift, in ${currency}`} onChange={(discountValue) => setOptions({ discountValue: discountValue as number })} />
            ) : (
              <NumberField
                label={`${label}: discount value`}
                value={options.discountValue}
                path={at('options', 'discountValue')}
                helpText="0 to 100; 100 makes the gift free"
                onChange={(discountValue) => setOptions({ discountValue: discountValue as number })}
              />
            )}
            <Field label={`${label}: discount title`} value={options.discountTitle ?? ''} path={at('options', 'discountTitle')} onChange={(discountTitle) => setOptions({ discountTitle })} />
            <NumberField
              label={`${label}: priority`}
              value={options.priority}
              path={at('options', 'priority')}
              helpText="Optional. Higher goes first when rules stack"
              onChange={(priority) => setOptions({ priority: priority === '' ? undefined : (priority as number) })}
            />
            <NumberField
              label={`${label}: limit per customer`}
              value={options.maxPerCustomer}
              path={at('options', 'maxPerCustomer')}
              helpText="Optional. Orders per customer that may carry this gift; signed-in customers only"
              onChange={(maxPerCustomer) => setOptions({ maxPerCustomer: maxPerCustomer === '' ? undefined : (maxPerCustomer as number) })}
            />
          </InlineGrid>
          <Checkbox
            label={`${label} is exclusive: when it gives, the rules after it give nothing`}
            checked={options.exclusive ?? false}
            onChange={(exclusive) => setOptions({ exclusive: exclusive ? true : undefined })}
          />
          <Checkbox
            label={`${label}: lock the gift's quantity`}
            helpText="When a shopper changes how many of the gift are in the cart, the storefront puts it back to the gift's quantity. On by default for gifts added automatically"
            checked={options.lockQuantity ?? options.actionType !== 'customer_choice'}
            onChange={(lockQuantity) => setOptions({ lockQuantity })}
          />
          <BudgetFields label={label} budget={options.budget} usage={usage} path={at('options', 'budget')} onChange={(budget) => setOptions({ budget })} />
        </BlockStack>
      </BlockStack>
    </Card>
  );
}

export function CampaignEditorPage() {
  // `#/campaigns/<id>/rules` is the rule-by-rule editor even for a ladder (the ladder editor's way here).
  const [id = '', view] = window.location.hash.replace(/^#\/campaigns\//, '').split('/');
  const isNew = id === 'new';
  const [body, setBody] = useState<CampaignBody | undefined>(isNew ? NEW_CAMPAIGN : undefined);
  const [usage, setUsage] = useState<Loaded['budgetUsage']>();
  const [plan, setPlan] = useState<Plan | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [fieldError, setFieldError] = useState<FieldError>();
  const [notice, setNotice] = useState<NoticeText | undefined>();
  const [saving, setSaving] = useState(false);
  const [showJson, setShowJson] = useState(false);

  const load = useCallback(async () => {
    const session = await api.GET('/app/api/v1/session');
    if (session.data) setPlan(session.data.shop.plan);
    if (isNew) return;
    const { data, error } = await api.GET('/app/api/v1/campaigns/{id}', { params: { path: { id } } });
    if (data && view !== 'rules' && rulesToLadder(data.campaign.rules)) return window.location.replace(`#/ladder/${id}`);
    if (data) {
      setBody(bodyOf(data.campaign));
      setUsage(data.campaign.budgetUsage);
      setLoadError(undefined);
    } else setLoadError(errorText(error, 'The campaign could not be loaded'));
  }, [id, isNew, view]);
  useEffect(() => {
    load().catch(() => setLoadError('The service did not answer'));
  }, [load]);
  // After "Create campaign" the page is the new campaign's (a new hash, a new editor): its heading takes focus.
  useHeadingFocus(body !== undefined && plan !== undefined);

  const save = async () => {
    if (!body) return;
    setSaving(true);
    setFieldError(undefined);
    setNotice(undefined);
    try {
      const saved = await saveCampaign(id, body, '#/campaigns/');
      if (!saved) return;
      if ('error' in saved) return showError(saved.error, saved.path);
      setBody(bodyOf(saved.campaign));
      // The PUT answer carries no usage: read it again for the budgets as saved.
      const read = await api.GET('/app/api/v1/campaigns/{id}', { params: { path: { id } } });
      setUsage(read.data?.campaign.budgetUsage);
      setNotice({ text: `${saved.campaign.name} is saved` });
    } catch {
      setNotice({ text: 'The service did not answer; try again', error: true });
    } finally {
      setSaving(false);
    }
  };

  function showError(error: unknown, at: (string | number)[] | undefined) {
    const e = (error ?? {}) as { issue?: string };
    const text = e.issue ?? errorText(error, 'The campaign could not be saved');
    const path = at ?? [];
    setFieldError(at ? { path, text } : undefined);
    setNotice({ text: `Not saved: ${errorText(error, 'the campaign is not valid')}${e.issue ? ` — ${e.issue}` : ''}${describePath(path)}`, error: true });
  }

  const title = isNew ? 'New campaign' : body ? `Edit ${body.name}` : 'Edit campaign';
  const backAction = { content: 'Campaigns', url: '#/campaigns' };
  if (loadError || !body || !plan) return <CampaignLoading title={title} loadError={loadError} onRetry={() => void load()} />;
  const setRule = (index: number, rule: RuleBody) => setBody({ ...body, rules: body.rules.map((r, i) => (i === index ? rule : r)) });
  const saveAction = { content: isNew ? 'Create campaign' : 'Save campaign', loading: saving, onAction: () => void save() };

  return (
    <ErrorContext.Provider value={fieldError}>
      <Page title={title} backAction={backAction} primaryAction={saveAction} secondaryActions={[{ content: showJson ? 'Hide JSON' : 'Show JSON', onAction: () => setShowJson(!showJson) }]}>
        <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <Card>
                <FormLayout>
                  <Field label="Campaign name" value={body.name} path={['name']} onChange={(name) => setBody({ ...body, name })} />
                  <Checkbox label="Draft (a draft is never live)" checked={body.isDraft} onChange={(isDraft) => setBody({ ...body, isDraft })} />
                  <FormLayout.Group>
                    <Field label="Starts" type="datetime-local" value={toLocalInput(body.startAt)} path={['startAt']} helpText="Your browser's time zone; empty for no start" onChange={(value) => setBody({ ...body, startAt: fromLocalInput(value) })} />
                    <Field label="Ends" type="datetime-local" value={toLocalInput(body.endAt)} path={['endAt']} helpText="Empty for no end" onChange={(value) => setBody({ ...body, endAt: fromLocalInput(value) })} />
                  </FormLayout.Group>
                  <Text as="p" tone="subdued">
                    {body.enabled ? 'The campaign is enabled.' : 'The campaign is not enabled.'} Enable or disable it from the campaigns list.
                  </Text>
                  <BudgetFields
                    label="Campaign"
                    budget={body.budget ?? undefined}
                    usage={usage?.campaign}
                    path={['budget']}
                    onChange={(budget) => {
                      const { budget: _old, ...rest } = body;
                      setBody(budget ? { ...rest, budget } : rest);
                    }}
                  />
                </FormLayout>
              </Card>
              {body.rules.map((rule, index) => (
                <RuleEditor key={index} rule={rule} index={index} plan={plan} usage={rule.id === undefined ? undefined : usage?.rules[rule.id]} onChange={(next) => setRule(index, next)} onRemove={() => setBody({ ...body, rules: body.rules.filter((_, i) => i !== index) })} />
              ))}
              {body.rules.length === 0 && (
                <Card>
                  <Text as="p">This campaign has no rules: it gives nothing. Add a rule.</Text>
                </Card>
              )}
              <InlineStack gap="200">
                <Button onClick={() => setBody({ ...body, rules: [...body.rules, newRule(body.rules.length)] })}>Add rule</Button>
                <Button variant="primary" loading={saving} onClick={() => void save()}>
                  {isNew ? 'Create campaign' : 'Save campaign'}
                </Button>
              </InlineStack>
              {showJson && (
                <Card>
                  <BlockStack gap="200">
                    <Text as="h2" variant="headingMd">
                      JSON
                    </Text>
                    <Text as="p" tone="subdued">
                      Exactly what {isNew ? 'POST /api/v1/campaigns/import sends as its one campaign' : `PUT /api/v1/campaigns/${id} sends`}.
                    </Text>
                    <Box overflowX="scroll">
                      <pre tabIndex={0} aria-label="Campaign JSON" data-testid="campaign-json" style={{ margin: 0, fontSize: 12, whiteSpace: 'pre' }}>
                        {JSON.stringify(body, null, 2)}
                      </pre>
                    </Box>
                  </BlockStack>
                </Card>
              )}
            </BlockStack>
          </Layout.Section>
        </Layout>
      </Page>
    </ErrorContext.Provider>
  );
}
