/**
 * The tier ladder editor (`#/ladder/new`, `#/ladder/<campaign id>`): "spend 50 → mug, 100 → mug +
 * tote, 150 → choose one of three" as one list of tiers, saved as one campaign through the
 * campaign routes (one import or one PUT: all or nothing), stored as the rules ladder-rules.ts
 * writes. A campaign whose rules are not exactly a ladder opens in the campaign editor instead.
 */
import { BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Page, Text, TextField } from '@shopify/polaris';
import { useCallback, useContext, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { api, errorText } from '../../api/client.ts';
import { Notice } from '../../Notice.tsx';
import type { NoticeText } from '../../Notice.tsx';
import { useHeadingFocus } from '../../useHeadingFocus.ts';
import { CampaignLoading, saveCampaign } from '../campaign-io.tsx';
import type { CampaignBody, LoadedCampaign, Path } from '../campaign-io.tsx';
import { ErrorContext, ShopCurrency, useErrorAt } from '../ConditionFields.tsx';
import { CatalogNamesProvider } from '../GiftCard.tsx';
import type { FieldError } from '../ConditionFields.tsx';
import { ladderProblem, ladderToRules, rulesToLadder } from './ladder-rules.ts';
import type { LadderTier } from './ladder-rules.ts';
import { TierCard, tierName } from './TierCard.tsx';

/** The campaign's own fields, kept as loaded (a PUT replaces them all). */
type Campaign = Omit<CampaignBody, 'rules'>;

const NEW: Campaign = { name: '', enabled: false, isDraft: true, startAt: null, endAt: null };
const newTier = (value: number, currency: string): LadderTier => ({ name: tierName(value, currency), threshold: { value }, gifts: [{ variantId: '', quantity: 1 }], choice: false });

/** The campaign fields of a loaded campaign, and its ladder (undefined: not a ladder). */
function read(campaign: LoadedCampaign): { campaign: Campaign; tiers: LadderTier[] | undefined } {
  const { name, enabled, isDraft, startAt, endAt, budget } = campaign;
  return { campaign: { name, enabled, isDraft, startAt, endAt, ...(budget ? { budget } : {}) }, tiers: rulesToLadder(campaign.rules) };
}

/** A server error path (`rules[r]…`) at the tier field it is about: the rules are written tier by tier. */
function tierPath(tiers: readonly LadderTier[], path: Readonly<Path>): Path {
  const [first, ruleIndex, ...rest] = path;
  if (first !== 'rules' || typeof ruleIndex !== 'number') return [...path];
  let rule = 0;
  for (const [tier, { gifts, choice }] of tiers.entries()) {
    const count = choice ? 1 : gifts.length;
    if (ruleIndex < rule + count) {
      const [part, , giftIndex, field] = rest;
      if (part === 'giftConfig' && typeof giftIndex === 'number') return ['tiers', tier, 'gifts', (choice ? 0 : ruleIndex - rule) + giftIndex, field ?? 'variantId'];
      return ['tiers', tier, rest.includes('currencyOverrides') ? 'currencyOverrides' : 'threshold'];
    }
    rule += count;
  }
  return [...path];
}

function NameField({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  return <TextField label="Campaign name" value={value} error={useErrorAt(['name'])} autoComplete="off" onChange={onChange} />;
}

export function LadderPage() {
  // From the route, not window.location: the address changes before the router leaves this screen.
  const id = useParams().id ?? 'new';
  const isNew = id === 'new';
  const currency = useContext(ShopCurrency);
  const [campaign, setCampaign] = useState<Campaign | undefined>(isNew ? NEW : undefined);
  const [tiers, setTiers] = useState<LadderTier[]>(() => [newTier(5000, currency), newTier(10000, currency)]);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [fieldError, setFieldError] = useState<FieldError>();
  const [notice, setNotice] = useState<NoticeText | undefined>();
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    if (isNew) return;
    const { data, error } = await api.GET('/app/api/v1/campaigns/{id}', { params: { path: { id } } });
    if (!data) return setLoadError(errorText(error, 'The campaign could not be loaded'));
    const loaded = read(data.campaign);
    // Not a ladder (rules edited one by one): the campaign editor shows it as it is.
    if (!loaded.tiers) return window.location.replace(`#/campaigns/${id}/rules`);
    setCampaign(loaded.campaign);
    setTiers(loaded.tiers);
    setLoadError(undefined);
  }, [id, isNew]);
  useEffect(() => {
    load().catch(() => setLoadError('The service did not answer'));
  }, [load]);
  useHeadingFocus(campaign !== undefined);

  const save = async () => {
    if (!campaign) return;
    setFieldError(undefined);
    const problem = ladderProblem(tiers);
    if (problem) return setNotice({ text: `Not saved: ${problem}`, error: true });
    setSaving(true);
    setNotice(undefined);
    const body: CampaignBody = { ...campaign, rules: ladderToRules(tiers) as CampaignBody['rules'] };
    try {
      const saved = await saveCampaign(id, body, '#/ladder/');
      if (!saved) return;
      if ('error' in saved) return showError(saved.error, saved.path);
      const ladder = read(saved.campaign);
      setCampaign(ladder.campaign);
      if (ladder.tiers) setTiers(ladder.tiers);
      setNotice({ text: `${ladder.campaign.name} is saved` });
    } catch {
      setNotice({ text: 'The service did not answer; try again', error: true });
    } finally {
      setSaving(false);
    }
  };

  function showError(error: unknown, at: Path | undefined) {
    const e = (error ?? {}) as { issue?: string };
    const path = tierPath(tiers, at ?? []);
    setFieldError(at ? { path, text: e.issue ?? errorText(error, 'Not valid') } : undefined);
    const where = path[0] === 'tiers' && typeof path[1] === 'number' ? ` (tier ${path[1] + 1})` : '';
    setNotice({ text: `Not saved: ${errorText(error, 'the ladder is not valid')}${e.issue ? ` — ${e.issue}` : ''}${where}`, error: true });
  }

  const title = isNew ? 'New tier ladder' : campaign ? `Edit ${campaign.name}` : 'Edit tier ladder';
  const backAction = { content: 'Campaigns', url: '#/campaigns' };
  if (loadError || !campaign) return <CampaignLoading title={title} loadError={loadError} onRetry={() => void load()} />;
  const setTier = (index: number, tier: LadderTier) => setTiers(tiers.map((t, i) => (i === index ? tier : t)));
  const addTier = () => setTiers([...tiers, newTier((tiers.at(-1)?.threshold.value ?? 0) + 5000, currency)]);
  const saveText = isNew ? 'Create ladder' : 'Save ladder';
  const secondaryActions = isNew ? [] : [{ content: 'Edit rule by rule', url: `#/campaigns/${id}/rules` }];

  return (
    <ErrorContext.Provider value={fieldError}>
      <CatalogNamesProvider>
        <Page title={title} subtitle="Tier ladder" backAction={backAction} primaryAction={{ content: saveText, loading: saving, onAction: () => void save() }} secondaryActions={secondaryActions}>
          <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
          <Layout>
            <Layout.Section>
              <BlockStack gap="400">
                <Card>
                  <FormLayout>
                    <NameField value={campaign.name} onChange={(name) => setCampaign({ ...campaign, name })} />
                    <Checkbox label="Draft (a draft is never live)" checked={campaign.isDraft} onChange={(isDraft) => setCampaign({ ...campaign, isDraft })} />
                    <Text as="p" tone="subdued">
                      Only the highest tier a cart reaches gives its gifts: a cart at the second tier gets the second tier's gifts, not the first's as well. List a gift again in a higher tier to keep it. The storefront's progress bar shows every tier. {campaign.enabled ? 'The campaign is enabled.' : 'Enable it from the campaigns list.'}
                    </Text>
                  </FormLayout>
                </Card>
                {tiers.map((tier, index) => (
                  <TierCard key={index} tier={tier} index={index} onChange={(next) => setTier(index, next)} onRemove={() => setTiers(tiers.filter((_, i) => i !== index))} />
                ))}
                {tiers.length === 0 && (
                  <Card>
                    <Text as="p">This ladder has no tiers: it gives nothing. Add two tiers.</Text>
                  </Card>
                )}
                <InlineStack gap="200">
                  <Button onClick={addTier}>Add tier</Button>
                  <Button variant="primary" loading={saving} onClick={() => void save()}>
                    {saveText}
                  </Button>
                </InlineStack>
              </BlockStack>
            </Layout.Section>
          </Layout>
        </Page>
      </CatalogNamesProvider>
    </ErrorContext.Provider>
  );
}
