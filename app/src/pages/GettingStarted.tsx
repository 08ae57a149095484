/**
 * The getting-started checklist on the admin's home (issue 23 item 7; docs/merchant-admin.md
 * "Getting started"): the four steps as the server has seen them (GET /onboarding), each linking
 * to where it is done. It hides once every step is done, or when dismissed (POST
 * /onboarding/dismiss, kept by the server for the shop). Read with the campaigns, by their route's
 * loader, so enabling a first campaign ticks its step at once.
 */
import { Badge, BlockStack, Box, Button, Card, Icon, InlineStack, ProgressBar, Text } from '@shopify/polaris';
import { CheckCircleIcon } from '@shopify/polaris-icons';
import { useState } from 'react';
import { api } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';

type Onboarding = paths['/app/api/v1/onboarding']['get']['responses'][200]['content']['application/json']['onboarding'];
type StepKey = Onboarding['steps'][number]['key'];

type StepWords = { title: string; detail: string; link?: { label: string; url: string; external?: boolean } };

/** What each step asks and where it is done; `embedUrl` is the theme editor with the embed ready. */
function stepWords(key: StepKey, embedUrl: string | null): StepWords {
  switch (key) {
    case 'connect':
      return { title: 'Connect your shop', detail: 'Installing the app from the platform connects it; an operator can also connect it with an access token.', link: { label: 'Open settings', url: '#/settings' } };
    case 'embed':
      return {
        title: 'Switch the app embed on',
        detail: 'In your theme editor, App embeds → Gift campaigns, then Save. Ticked once your storefront first loads the gift script.',
        ...(embedUrl ? { link: { label: 'Open the theme editor', url: embedUrl, external: true } } : {}),
      };
    case 'campaign':
      return { title: 'Create and enable a campaign', detail: 'Start from a template below, or from an empty campaign; then enable it in the list.', link: { label: 'Start a campaign', url: '#/campaigns/new' } };
    case 'gift':
      return { title: 'See a first gift', detail: 'Ticked when a shopper’s cart gets a gift or an order carries one. Try a cart in the simulator meanwhile.', link: { label: 'Open the simulator', url: '#/simulator' } };
  }
}

/** `onboarding` comes with the campaigns (CampaignsPage's loader); undefined: left out. */
export function GettingStarted({ onboarding }: { onboarding: Onboarding | undefined }) {
  const [dismissing, setDismissing] = useState(false);
  const [hidden, setHidden] = useState(false);
  // A checklist that failed to load is left out: it helps, it never blocks the campaigns.
  if (!onboarding || onboarding.complete || onboarding.dismissed || hidden) return null;
  const done = onboarding.steps.filter((step) => step.done).length;
  const dismiss = async () => {
    setDismissing(true);
    const { data } = await api.POST('/app/api/v1/onboarding/dismiss');
    setDismissing(false);
    if (data) setHidden(true);
  };

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            Get started
          </Text>
          <Button variant="plain" onClick={() => void dismiss()} loading={dismissing} accessibilityLabel="Hide checklist of getting-started steps">
            Hide checklist
          </Button>
        </InlineStack>
        <Text as="p" tone="subdued" id="getting-started-progress">
          {done} of {onboarding.steps.length} steps done
        </Text>
        <ProgressBar progress={(done / onboarding.steps.length) * 100} size="small" tone="success" ariaLabelledBy="getting-started-progress" />
        <ol aria-label="Getting-started steps" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {onboarding.steps.map((step) => {
            const words = stepWords(step.key, onboarding.embedUrl);
            return (
              <li key={step.key}>
                <Box paddingBlock="200">
                  <InlineStack gap="300" blockAlign="start" wrap={false}>
                    <div style={{ flexShrink: 0 }}>{step.done ? <Icon source={CheckCircleIcon} tone="success" accessibilityLabel="Done" /> : <Badge>To do</Badge>}</div>
                    <BlockStack gap="100">
                      <Text as="h3" variant="headingSm" tone={step.done ? 'subdued' : undefined}>
                        {words.title}
                      </Text>
                      {!step.done && <Text as="p">{words.detail}</Text>}
                      {!step.done && words.link && (
                        <InlineStack>
                          <Button url={words.link.url} {...(words.link.external ? { target: '_blank' as const } : {})}>
                            {words.link.label}
                          </Button>
                        </InlineStack>
                      )}
                    </BlockStack>
                  </InlineStack>
                </Box>
              </li>
            );
          })}
        </ol>
      </BlockStack>
    </Card>
  );
}
