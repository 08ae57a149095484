/**
 * Settings → Plan (docs/billing.md): the shop's plan, the plans with the operator's prices, and
 * a button per plan. Choosing one creates the app subscription and sends the merchant to the
 * platform's confirmation page at the top level: embedded, through App Bridge's
 * `window.open(url, '_top')` (the app's iframe cannot navigate the admin itself); standalone,
 * by location. Choosing Free cancels the current subscription (no page to approve). The plan
 * changes when the platform confirms it, not here. A shop that is not
 * connected to the platform has its plan set by the operator: the page says so. Above the plans,
 * the platform connection and the catalog import (ConnectionCard).
 */
import { Badge, Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Page, SkeletonBodyText, Text } from '@shopify/polaris';
import { PLANS } from '@gcrs/engine';
import { useCallback, useState } from 'react';
import { api, errorText } from '../../api/client.ts';
import type { paths } from '../../api/schema.d.ts';
import { Notice } from '../../Notice.tsx';
import type { NoticeText } from '../../Notice.tsx';
import { ConnectionCard } from './ConnectionCard.tsx';
import { fieldErrorOf } from './field-errors.ts';
import { SettingsNav } from './SettingsNav.tsx';
import { useLoaded } from '../../useLoaded.ts';

type Billing = paths['/app/api/v1/billing']['get']['responses'][200]['content']['application/json'];
type PlanOffer = Billing['plans'][number];

const INTERVAL: Record<string, string> = { EVERY_30_DAYS: 'every 30 days', ANNUAL: 'a year' };

function priceText(offer: PlanOffer): string {
  if (!PLANS[offer.plan].paid) return 'No charge';
  if (!offer.price) return 'Not offered';
  const amount = new Intl.NumberFormat(undefined, { style: 'currency', currency: offer.price.currencyCode }).format(Number(offer.price.amount));
  const trial = offer.price.trialDays ? `, ${offer.price.trialDays}-day free trial` : '';
  return `${amount} ${INTERVAL[offer.price.interval] ?? offer.price.interval}${trial}`;
}

/** Leaves the app for the platform's confirmation page, out of the admin's iframe when embedded. */
function goToConfirmation(url: string): void {
  if (window.shopify) window.open(url, '_top');
  else window.location.assign(url);
}

/** The route's loader (app/src/pages/settings/routes.tsx). */
export const loadBilling = () => api.GET('/app/api/v1/billing');

export function PlanPage() {
  const { value: billing, error: loadError, reload: load } = useLoaded<typeof loadBilling>('The plans could not be loaded');
  const [choosing, setChoosing] = useState<string | undefined>();
  const [notice, setNotice] = useState<NoticeText | undefined>();

  const choose = useCallback(async (offer: PlanOffer) => {
    setChoosing(offer.plan);
    setNotice(undefined);
    const { data, error } = await api.POST('/app/api/v1/billing/subscription', { body: { plan: offer.plan } });
    if (data?.confirmationUrl) {
      goToConfirmation(data.confirmationUrl);
      return;
    }
    setChoosing(undefined);
    if (data) {
      // Back to Free: cancelled on the platform; the plan follows its webhook, moments later.
      setNotice({ text: 'Your subscription is cancelled. The plan becomes Free as soon as the platform confirms it; reload this page to see it.' });
      await load();
      return;
    }
    const failure = !PLANS[offer.plan].paid ? 'The subscription could not be cancelled' : 'The subscription could not be started';
    const { text } = fieldErrorOf(error, failure);
    const title = errorText(error, failure);
    setNotice({ text: title === text ? text : `${title}: ${text}`, error: true });
  }, [load]);

  let body;
  if (loadError) {
    body = (
      <Banner tone="critical" title="The plans could not be loaded" action={{ content: 'Try again', onAction: () => void load() }}>
        <p>{loadError}</p>
      </Banner>
    );
  } else if (!billing) {
    body = (
      <Card>
        <SkeletonBodyText lines={4} />
      </Card>
    );
  } else {
    const current = billing.plans.find((offer) => offer.plan === billing.plan);
    body = (
      <BlockStack gap="400">
        {!billing.connected && (
          <Banner tone="info" title="Your plan is set by the service's operator">
            <p>This shop is not connected to the platform's billing: ask the operator to change its plan.</p>
          </Banner>
        )}
        {billing.connected && billing.test && (
          <Banner tone="warning" title="Test charges">
            <p>Subscriptions are created as test charges: approving one costs nothing.</p>
          </Banner>
        )}
        <Text as="p">
          Current plan: <strong>{current?.name ?? billing.plan}</strong>. A new plan starts when you approve it on the platform's page.
        </Text>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
          {billing.plans.map((offer) => {
            const isCurrent = offer.plan === billing.plan;
            // Free is reached by cancelling the current subscription; a paid plan needs a price.
            const canChoose = billing.connected && !isCurrent && (!PLANS[offer.plan].paid ? billing.currentSubscriptionId !== null : offer.price !== null);
            return (
              <Card key={offer.plan}>
                <BlockStack gap="200">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h2" variant="headingMd">
                      {offer.name}
                    </Text>
                    {isCurrent && <Badge tone="success">Current plan</Badge>}
                  </InlineStack>
                  <Text as="p">{priceText(offer)}</Text>
                  {canChoose && (
                    <InlineStack>
                      <Button variant="primary" loading={choosing === offer.plan} disabled={choosing !== undefined} onClick={() => void choose(offer)}>
                        {!PLANS[offer.plan].paid ? 'Cancel subscription and go back to Free' : `Choose ${offer.name}`}
                      </Button>
                    </InlineStack>
                  )}
                </BlockStack>
              </Card>
            );
          })}
        </InlineGrid>
      </BlockStack>
    );
  }

  return (
    <Page title="Settings" subtitle="Plan">
      <SettingsNav current="plan" />
      <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
      <BlockStack gap="400">
        <ConnectionCard />
        {body}
      </BlockStack>
    </Page>
  );
}
