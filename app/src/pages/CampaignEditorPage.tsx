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
import { Banner, BlockStack, Box, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Page, Text } from '@shopify/polaris';
import { newLeaf } from '@gcrs/engine';
import { useCallback, useContext, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { api, errorText } from '../api/client.ts';
import { Notice } from '../Notice.tsx';
import { fromLocalInput, toLocalInput } from '../local-time.ts';
import { useHeadingFocus } from '../useHeadingFocus.ts';
import type { NoticeText } from '../Notice.tsx';
import { BudgetFields } from './BudgetFields.tsx';
import { bodyOf, describePath } from './campaign-body.ts';
import type { CampaignBody, Loaded, RuleBody } from './campaign-body.ts';
import { CampaignLoading, saveCampaign } from './campaign-io.tsx';
import { templateOf } from './campaign-templates.ts';
import { CatalogNamesProvider } from './GiftCard.tsx';
import { rulesToLadder } from './ladder/ladder-rules.ts';
import type { Plan } from './ConditionTreeBuilder.tsx';
import { ErrorContext, PlainTextField as Field, ShopCurrency } from './ConditionFields.tsx';
import type { FieldError } from './ConditionFields.tsx';
import { RuleEditor } from './RuleEditor.tsx';
import { ShopLocalesProvider } from './shop-locales.tsx';

const newRule = (index: number): RuleBody => ({
  name: `Rule ${index + 1}`,
  enabled: true,
  conditionTree: { type: 'AND', children: [newLeaf('cart.subtotal_gte')] },
  giftConfig: { type: 'fixed', gifts: [{ variantId: '', quantity: 1 }], fallbackOnOOS: false },
  options: { actionType: 'auto_add', discountMethod: 'automatic', discountType: 'percentage', discountValue: 100, discountTitle: 'Free gift' },
});

const NEW_CAMPAIGN: CampaignBody = { name: '', enabled: false, isDraft: true, startAt: null, endAt: null, rules: [newRule(0)] };

export function CampaignEditorPage() {
  // From the route, not window.location: the address changes before the router leaves this screen.
  const params = useParams();
  const id = params.id ?? 'new';
  const isNew = id === 'new';
  // `#/campaigns/<id>/rules` is the rule-by-rule editor even for a ladder (the ladder editor's way here).
  const view = params['*'];
  // `new/<template>`: a new campaign filled from a template (campaign-templates.ts).
  const template = isNew && params['*'] ? templateOf(params['*']) : undefined;
  const currency = useContext(ShopCurrency);
  const [body, setBody] = useState<CampaignBody | undefined>(isNew ? (template?.build(currency) ?? NEW_CAMPAIGN) : undefined);
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
      // The PUT answers what GET does, the budgets' usage as saved included.
      setBody(bodyOf(saved.campaign));
      setUsage(saved.campaign.budgetUsage);
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

  const title = isNew ? (template ? `New campaign: ${template.title}` : 'New campaign') : body ? `Edit ${body.name}` : 'Edit campaign';
  const backAction = { content: 'Campaigns', url: '#/campaigns' };
  if (loadError || !body || !plan) return <CampaignLoading title={title} loadError={loadError} onRetry={() => void load()} />;
  const setRule = (index: number, rule: RuleBody) => setBody({ ...body, rules: body.rules.map((r, i) => (i === index ? rule : r)) });
  const saveAction = { content: isNew ? 'Create campaign' : 'Save campaign', loading: saving, onAction: () => void save() };

  return (
    <ErrorContext.Provider value={fieldError}>
      <CatalogNamesProvider>
        <ShopLocalesProvider>
          <Page title={title} backAction={backAction} primaryAction={saveAction} secondaryActions={[{ content: showJson ? 'Hide JSON' : 'Show JSON', onAction: () => setShowJson(!showJson) }]}>
            <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
            {template && (
              <Box paddingBlockEnd="400">
                <Banner tone="info" title={`Filled from the template ${template.title}`}>
                  <p>{template.summary} Nothing is saved until you create the campaign.</p>
                </Banner>
              </Box>
            )}
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
        </ShopLocalesProvider>
      </CatalogNamesProvider>
    </ErrorContext.Provider>
  );
}
