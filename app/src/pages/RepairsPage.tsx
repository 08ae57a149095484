/**
 * Repaired orders (docs/repairs.md): the paid orders a live auto-add rule matched without its gift
 * (an express or wallet checkout skips the cart), newest first, with what the service did — the
 * gift added to the order, or why not. The shop setting "Add missing gifts to paid orders" turns
 * the repairs off (Settings → Shop settings).
 */
import { Badge, Banner, BlockStack, Card, Page, SkeletonBodyText, Text } from '@shopify/polaris';
import type { BadgeProps } from '@shopify/polaris';
import { api } from '../api/client.ts';
import type { paths } from '../api/schema.d.ts';
import { Empty } from '../Empty.tsx';
import { RowList } from '../RowList.tsx';
import { useLoaded } from '../useLoaded.ts';

type Repair = paths['/app/api/v1/repairs']['get']['responses'][200]['content']['application/json']['repairs'][number];

/** Each status as the merchant reads it, and its badge tone. */
const STATUS: Record<Repair['status'], { label: string; tone?: BadgeProps['tone'] }> = {
  pending: { label: 'Waiting', tone: 'info' },
  editing: { label: 'Editing the order', tone: 'info' },
  reserved: { label: 'Retrying', tone: 'attention' },
  repaired: { label: 'Gift added', tone: 'success' },
  failed: { label: 'Failed', tone: 'critical' },
  interrupted: { label: 'Interrupted: check the order', tone: 'warning' },
  cancelled: { label: 'Not added: order cancelled first' },
  skipped_customer_choice: { label: 'Not added: the shopper chooses the gift' },
  skipped_sold_out: { label: 'Not added: gift sold out' },
  skipped_budget: { label: 'Not added: budget spent' },
  skipped_limit: { label: 'Not added: customer limit reached' },
  skipped_not_connected: { label: 'Not added: store not connected' },
  skipped_order_gone: { label: 'Not added: order no longer recorded' },
};

const numeric = (gid: string) => gid.replace(/^.*\//, '');

/** The route's loader (app/src/routes.tsx). */
export const loadRepairs = () => api.GET('/app/api/v1/repairs');

export function RepairsPage() {
  const loaded = useLoaded<typeof loadRepairs>('The repaired orders could not be loaded');
  const repairs = loaded.value?.repairs.map((repair) => ({ ...repair, id: `${repair.orderId}/${repair.ruleId}` }));

  return (
    <Page title="Repaired orders">
      <BlockStack gap="400">
        <Card>
          <Text as="p">
            Express and wallet checkouts can skip the cart, so an automatic gift may be missing from a paid order. The app then adds it to the
            order, free or at the rule&apos;s discount, without emailing the customer. Each added gift counts as a gift given in Analytics.
          </Text>
        </Card>
        {loaded.error ? (
          <Banner tone="critical" title="The repaired orders could not be loaded" action={{ content: 'Try again', onAction: () => void loaded.reload() }}>
            <p>{loaded.error}</p>
          </Banner>
        ) : repairs === undefined ? (
          <Card>
            <SkeletonBodyText lines={3} />
          </Card>
        ) : repairs.length === 0 ? (
          <Card>
            <Empty heading="No order needed a gift">
              <p>When a paid order is missing an automatic gift, it appears here.</p>
            </Empty>
          </Card>
        ) : (
          <RowList label="Repaired orders" items={repairs}>
            {(repair) => (
              <>
                <BlockStack gap="100">
                  <Text as="h2" variant="headingSm" breakWord>
                    Order {repair.orderId}
                  </Text>
                  <Text as="p" tone="subdued" breakWord>
                    {repair.quantity} × {repair.giftTitle ?? `variant ${numeric(repair.variantId)}`} · {repair.ruleName ? `rule “${repair.ruleName}”` : 'a deleted rule'} ·{' '}
                    {new Date(repair.createdAt).toLocaleString()}
                  </Text>
                  {repair.detail ? (
                    <Text as="p" breakWord>
                      {repair.detail}
                    </Text>
                  ) : null}
                </BlockStack>
                <Badge {...(STATUS[repair.status].tone ? { tone: STATUS[repair.status].tone } : {})}>{STATUS[repair.status].label}</Badge>
              </>
            )}
          </RowList>
        )}
      </BlockStack>
    </Page>
  );
}
