/**
 * Settings → Webhooks: add an endpoint (URL and events; its `whsec_` signing secret shown once),
 * list and delete endpoints, and the delivery log (status, attempts, last error) newest first.
 */
import { Badge, Banner, BlockStack, Box, Button, Card, ChoiceList, InlineStack, Modal, Page, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { useCallback, useState } from 'react';
import { api, errorText } from '../../api/client.ts';
import { useLoaded } from '../../useLoaded.ts';
import type { paths } from '../../api/schema.d.ts';
import { Empty } from '../../Empty.tsx';
import { RowList } from '../../RowList.tsx';
import { Notice } from '../../Notice.tsx';
import type { NoticeText } from '../../Notice.tsx';
import { fieldErrorOf } from './field-errors.ts';
import { SettingsNav } from './SettingsNav.tsx';
import { ShownOnce } from './ShownOnce.tsx';
import { CreateCard } from './CreateCard.tsx';

type Endpoint = paths['/app/api/v1/webhook-endpoints']['get']['responses'][200]['content']['application/json']['endpoints'][number];
type EventType = NonNullable<paths['/app/api/v1/webhook-endpoints']['post']['requestBody']['content']['application/json']['events']>[number];

const EVENTS: Array<{ value: EventType; label: string }> = [
  { value: 'campaign.activated', label: 'A campaign goes live (campaign.activated)' },
  { value: 'campaign.deactivated', label: 'A campaign stops (campaign.deactivated)' },
  { value: 'gift.added', label: 'A gift is added to a cart (gift.added)' },
  { value: 'order.converted', label: 'An order with a gift is placed (order.converted)' },
];

const STATUS_TONE = { pending: 'attention', delivered: 'success', failed: 'critical', cancelled: undefined } as const;
const STATUS_LABEL = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed', cancelled: 'Cancelled' } as const;

// Cards run edge to edge below Polaris' small breakpoint: headings between them keep the page's inset.
const CARD_EDGE = { xs: '400', sm: '0' } as const;

const rowStyle = (index: number) => (index > 0 ? { borderTop: '1px solid var(--p-color-border-secondary)' } : undefined);

/** The route's loader (app/src/pages/settings/routes.tsx): the endpoints and the delivery log. */
export async function loadWebhooks() {
  const [list, log] = await Promise.all([api.GET('/app/api/v1/webhook-endpoints'), api.GET('/app/api/v1/webhook-deliveries', { params: { query: { limit: 50 } } })]);
  return list.data && log.data ? { data: { endpoints: list.data.endpoints, deliveries: log.data.deliveries } } : { error: list.error ?? log.error };
}

export function WebhooksPage() {
  const loaded = useLoaded<typeof loadWebhooks>('The webhooks could not be loaded');
  const { error: loadError, reload: load } = loaded;
  const endpoints = loaded.value?.endpoints;
  const deliveries = loaded.value?.deliveries;
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>([]);
  const [fieldErrors, setFieldErrors] = useState<{ url?: string; events?: string }>({});
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ url: string; secret: string } | undefined>();
  const [deleting, setDeleting] = useState<Endpoint | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeText | undefined>();

  const create = useCallback(async () => {
    setCreating(true);
    const { data, error } = await api.POST('/app/api/v1/webhook-endpoints', { body: { url: url.trim(), events } });
    setCreating(false);
    if (data) {
      setCreated({ url: data.endpoint.url, secret: data.endpoint.secret });
      setUrl('');
      setEvents([]);
      setFieldErrors({});
      setNotice(undefined);
    } else {
      const { field, text } = fieldErrorOf(error, 'The endpoint could not be added');
      const at = field?.split('.')[0];
      if (at === 'url' || at === 'events') setFieldErrors({ [at]: text });
      else setNotice({ text, error: true });
    }
    await load();
  }, [url, events, load]);

  const remove = useCallback(
    async (endpoint: Endpoint) => {
      setBusy(true);
      const { response, error } = await api.DELETE('/app/api/v1/webhook-endpoints/{endpointId}', { params: { path: { endpointId: endpoint.id } } });
      setBusy(false);
      setDeleting(undefined);
      setNotice(response.ok ? { text: `${endpoint.url} is deleted` } : { text: errorText(error, 'The endpoint could not be deleted'), error: true });
      await load();
    },
    [load],
  );

  const urlOf = (endpointId: string | null) => endpoints?.find((endpoint) => endpoint.id === endpointId)?.url ?? 'a deleted endpoint';

  let lists;
  if (loadError) {
    lists = (
      <Banner tone="critical" title="The webhooks could not be loaded" action={{ content: 'Try again', onAction: () => void load() }}>
        <p>{loadError}</p>
      </Banner>
    );
  } else if (!endpoints || !deliveries) {
    lists = (
      <Card>
        <SkeletonBodyText lines={4} />
      </Card>
    );
  } else {
    lists = (
      <>
          <Box paddingInline={CARD_EDGE}>
            <Text as="h2" variant="headingMd">
              Endpoints
            </Text>
          </Box>
          {endpoints.length === 0 ? (
            <Card>
              <Empty heading="No webhook endpoints">
                <p>Add an endpoint above to hear about campaigns, gifts and orders as they happen.</p>
              </Empty>
            </Card>
          ) : (
            <RowList label="Webhook endpoints" items={endpoints}>
              {(endpoint) => (
                <>
                <BlockStack gap="100">
                  <Text as="h3" variant="headingSm" breakWord>
                    {endpoint.url}
                  </Text>
                  <Text as="p" tone="subdued">
                    {endpoint.events.length === 0 ? 'Every event' : endpoint.events.join(', ')} · added {new Date(endpoint.createdAt).toLocaleString()}
                    {endpoint.disabledAt ? ' · disabled' : ''}
                  </Text>
                </BlockStack>
                <Button tone="critical" onClick={() => setDeleting(endpoint)} accessibilityLabel={`Delete ${endpoint.url}`}>
                  Delete
                </Button>
              </>
            )}
          </RowList>
        )}
        <Box paddingInline={CARD_EDGE}>
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Text as="h2" variant="headingMd">
              Delivery log
            </Text>
            <Button onClick={() => void load()} accessibilityLabel="Refresh the delivery log">
              Refresh
            </Button>
          </InlineStack>
        </Box>
        {deliveries.length === 0 ? (
          <Card>
            <Empty heading="No deliveries yet">
              <p>Each event sent to an endpoint shows here with its attempts.</p>
            </Empty>
          </Card>
        ) : (
          <Card padding="0">
            <ul aria-label="Webhook deliveries" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {deliveries.map((delivery, index) => (
                <li key={delivery.id} style={rowStyle(index)}>
                  <Box padding="400">
                    <BlockStack gap="100">
                      <InlineStack gap="200" blockAlign="center" wrap>
                        <Text as="h3" variant="headingSm">
                          {delivery.type}
                        </Text>
                        <Badge tone={STATUS_TONE[delivery.status]}>{STATUS_LABEL[delivery.status]}</Badge>
                      </InlineStack>
                      <Text as="p" tone="subdued" breakWord>
                        To {urlOf(delivery.endpointId)} · {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
                        {delivery.lastStatusCode === null ? '' : ` · last answer HTTP ${delivery.lastStatusCode}`} · {new Date(delivery.createdAt).toLocaleString()}
                        {delivery.status === 'pending' ? ` · next attempt ${new Date(delivery.nextAttemptAt).toLocaleString()}` : ''}
                      </Text>
                      {delivery.lastError && (
                        <Text as="p" tone="critical" breakWord>
                          Last error: {delivery.lastError}
                        </Text>
                      )}
                    </BlockStack>
                  </Box>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </>
    );
  }

  return (
    <Page title="Settings" subtitle="Webhooks">
      <SettingsNav current="webhooks" />
      <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
      <BlockStack gap="400">
        <CreateCard title="Add a webhook endpoint" description="Events are signed (Standard Webhooks) with the endpoint's secret, shown once when it is added." submitLabel="Add endpoint" busy={creating} onSubmit={() => void create()}>
          <TextField label="Endpoint URL" type="url" value={url} onChange={setUrl} autoComplete="off" placeholder="https://example.com/hooks" error={fieldErrors.url} />
          <ChoiceList
            allowMultiple
            title="Events (none chosen: every event)"
            choices={EVENTS}
            selected={events}
            onChange={(chosen) => setEvents(EVENTS.filter((event) => chosen.includes(event.value)).map((event) => event.value))}
            error={fieldErrors.events}
          />
        </CreateCard>
        {created && (
          <ShownOnce
            title={`Endpoint ${created.url} added: copy its signing secret now, it is not shown again`}
            label="Signing secret"
            value={created.secret}
            onDismiss={() => setCreated(undefined)}
          />
        )}
        {lists}
      </BlockStack>
      {deleting && (
        <Modal
          open
          onClose={() => setDeleting(undefined)}
          title={`Delete ${deleting.url}?`}
          primaryAction={{ content: 'Delete endpoint', destructive: true, loading: busy, onAction: () => void remove(deleting) }}
          secondaryActions={[{ content: 'Cancel', onAction: () => setDeleting(undefined) }]}
        >
          <Modal.Section>
            <Text as="p">No more events are sent to it; its pending deliveries are cancelled. This cannot be undone.</Text>
          </Modal.Section>
        </Modal>
      )}
    </Page>
  );
}
