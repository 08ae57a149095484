/**
 * Settings → Plan's platform section (docs/install.md "What the merchant sees"): whether the shop
 * is connected and since when, a broken connection with its reason, and the catalog import of
 * the last install — running (pages and products so far) or done — with its last error in
 * words. Reads GET /app/api/v1/platform-connection; a service without the platform's secret has
 * no such route (404) and the section is not shown.
 */
import { Banner, BlockStack, Button, Card, InlineStack, Text } from '@shopify/polaris';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema.d.ts';

type Connection = paths['/app/api/v1/platform-connection']['get']['responses'][200]['content']['application/json'];

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * The import's last error as a merchant reads it; the platform's own words follow it.
 *
 * @example errorInWords('Throttled (HTTP 429)'); // 'The platform asked the app to slow down.'
 */
export function errorInWords(error: string): string {
  if (/\b429\b|throttl/i.test(error)) return 'The platform asked the app to slow down.';
  if (/\b401\b|unauthori[sz]ed|access token/i.test(error)) return 'The platform refused the app\'s access to your shop: open the app from your platform admin to reconnect it.';
  if (/\b5\d\d\b|unavailable|timed? ?out|ECONN|fetch failed/i.test(error)) return 'The platform could not be reached.';
  if (/schema|missing|expected/i.test(error)) return 'The platform answered in a way the app did not expect.';
  return 'The last attempt failed.';
}

export function ConnectionCard() {
  const [connection, setConnection] = useState<Connection | null | undefined>();

  const load = useCallback(async () => {
    const { data } = await api.GET('/app/api/v1/platform-connection');
    setConnection(data ?? null);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  if (!connection) return null;
  const run = connection.catalogImport;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Platform connection
        </Text>
        {connection.broken ? (
          <Banner tone="critical" title={`Connection broken since ${connection.brokenAt ? when(connection.brokenAt) : 'recently'}`}>
            <p>The platform refused the app's access to your shop. Open the app from your platform admin to reconnect it.</p>
            {connection.brokenReason && <p>Details: {connection.brokenReason}</p>}
          </Banner>
        ) : (
          <Text as="p">{connection.connected && connection.connectedAt ? `Connected since ${when(connection.connectedAt)}.` : 'Not connected to the platform.'}</Text>
        )}
        {run && (
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              Catalog import
            </Text>
            {run.status === 'done' ? (
              <Text as="p">
                {`Done${run.finishedAt ? ` on ${when(run.finishedAt)}` : ''}: ${count(run.products, 'product', 'products')} and ${count(run.variants, 'variant', 'variants')} imported.`}
              </Text>
            ) : (
              <Text as="p">
                {`Running since ${when(run.startedAt)}: ${count(run.pages, 'page', 'pages')}, ${count(run.products, 'product', 'products')} and ${count(run.variants, 'variant', 'variants')} so far.`}
              </Text>
            )}
            {run.lastError && run.status !== 'done' && (
              <Banner tone="warning" title="The import is retrying">
                <p>{`${errorInWords(run.lastError)} The app tries again on its own.`}</p>
                <p>Details: {run.lastError}</p>
              </Banner>
            )}
            {run.status !== 'done' && (
              <InlineStack>
                <Button onClick={() => void load()}>Refresh import status</Button>
              </InlineStack>
            )}
          </BlockStack>
        )}
      </BlockStack>
    </Card>
  );
}
