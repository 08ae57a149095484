/**
 * Settings → Data requests: the customers' data requests the platform sent
 * (`customers/data_request`, docs/compliance.md), newest first, each with a download of the
 * JSON export gathered when it arrived, for the merchant to send to the customer.
 */
import { Banner, BlockStack, Button, Card, Page, SkeletonBodyText, Text } from '@shopify/polaris';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema.d.ts';
import { Empty } from '../../Empty.tsx';
import { RowList } from '../../RowList.tsx';
import { useLoaded } from '../../useLoaded.ts';
import { SettingsNav } from './SettingsNav.tsx';

type DataRequest = paths['/app/api/v1/data-requests']['get']['responses'][200]['content']['application/json']['dataRequests'][number];

/** How many items of `key` the export holds (0 when absent). */
const countOf = (request: DataRequest, key: string): number => {
  const value = request.export[key];
  return Array.isArray(value) ? value.length : 0;
};

/** `1 order`, `2 orders`. */
const counted = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** Saves the request's export as `data-request-<id>.json` through a short-lived object URL. */
function downloadExport(request: DataRequest): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(request.export, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `data-request-${request.id}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The route's loader (app/src/pages/settings/routes.tsx). */
export const loadDataRequests = () => api.GET('/app/api/v1/data-requests');

export function DataRequestsPage() {
  const loaded = useLoaded<typeof loadDataRequests>('The data requests could not be loaded');
  const requests = loaded.value?.dataRequests;

  return (
    <Page title="Settings" subtitle="Data requests">
      <SettingsNav current="data-requests" />
      <BlockStack gap="400">
        <Card>
          <Text as="p">
            When a customer asks your store for their data, the platform tells this app, which gathers what it holds about that customer here:
            gift redemptions, orders and storefront events. Download the export and send it to the customer.
          </Text>
        </Card>
        {loaded.error ? (
          <Banner tone="critical" title="The data requests could not be loaded" action={{ content: 'Try again', onAction: () => void loaded.reload() }}>
            <p>{loaded.error}</p>
          </Banner>
        ) : requests === undefined ? (
          <Card>
            <SkeletonBodyText lines={3} />
          </Card>
        ) : requests.length === 0 ? (
          <Card>
            <Empty heading="No data requests">
              <p>A customer's request appears here as soon as the platform sends it.</p>
            </Empty>
          </Card>
        ) : (
          <RowList label="Data requests" items={requests}>
            {(request) => (
              <>
                <BlockStack gap="100">
                  <Text as="h2" variant="headingSm" breakWord>
                    Customer {request.customerId}
                  </Text>
                  <Text as="p" tone="subdued" breakWord>
                    Request {request.id} · received {new Date(request.receivedAt).toLocaleString()}
                  </Text>
                  <Text as="p" breakWord>
                    {[
                      counted(countOf(request, 'redemptions'), 'redemption record', 'redemption records'),
                      counted(countOf(request, 'orders'), 'order', 'orders'),
                      counted(countOf(request, 'storefrontEvents'), 'storefront event', 'storefront events'),
                    ].join(' · ')}
                  </Text>
                </BlockStack>
                <Button onClick={() => downloadExport(request)} accessibilityLabel={`Download export of request ${request.id} (customer ${request.customerId})`}>
                  Download export
                </Button>
              </>
            )}
          </RowList>
        )}
      </BlockStack>
    </Page>
  );
}
