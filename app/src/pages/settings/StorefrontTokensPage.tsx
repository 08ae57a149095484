/**
 * Settings → Storefront tokens: create a publishable token with the origins allowed to use it
 * (the token shown once), list, revoke with confirmation.
 */
import { Banner, BlockStack, Button, Card, Modal, Page, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
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

type StorefrontToken = paths['/app/api/v1/storefront-tokens']['get']['responses'][200]['content']['application/json']['storefrontTokens'][number];

/** One origin a line; blank lines dropped. */
const originsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The route's loader (app/src/pages/settings/routes.tsx). */
export const loadStorefrontTokens = () => api.GET('/app/api/v1/storefront-tokens');

export function StorefrontTokensPage() {
  const loaded = useLoaded<typeof loadStorefrontTokens>('The tokens could not be loaded');
  const { error: loadError, reload: load } = loaded;
  const tokens = loaded.value?.storefrontTokens;
  const [origins, setOrigins] = useState('');
  const [originsError, setOriginsError] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | undefined>();
  const [revoking, setRevoking] = useState<StorefrontToken | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeText | undefined>();

  const create = useCallback(async () => {
    setCreating(true);
    const lines = originsOf(origins);
    const { data, error } = await api.POST('/app/api/v1/storefront-tokens', { body: { allowedOrigins: lines } });
    setCreating(false);
    if (data) {
      setCreated(data.token);
      setOrigins('');
      setOriginsError(undefined);
      setNotice(undefined);
    } else {
      const { field, text } = fieldErrorOf(error, 'The token could not be created');
      const [at, index] = field?.split('.') ?? [];
      if (at === 'allowedOrigins') {
        const line = index === undefined ? undefined : lines[Number(index)];
        setOriginsError(line === undefined ? text : `${line}: ${text}`);
      } else setNotice({ text, error: true });
    }
    await load();
  }, [origins, load]);

  const revoke = useCallback(
    async (token: StorefrontToken) => {
      setBusy(true);
      const { response, error } = await api.DELETE('/app/api/v1/storefront-tokens/{tokenId}', { params: { path: { tokenId: token.id } } });
      setBusy(false);
      setRevoking(undefined);
      setNotice(response.ok ? { text: `Token ${token.prefix}… is revoked` } : { text: errorText(error, 'The token could not be revoked'), error: true });
      await load();
    },
    [load],
  );

  return (
    <Page title="Settings" subtitle="Storefront tokens">
      <SettingsNav current="storefront-tokens" />
      <Notice notice={notice} onDismiss={() => setNotice(undefined)} />
      <BlockStack gap="400">
        <CreateCard title="Create a storefront token" description="A publishable token for a headless storefront: it opens the storefront routes only, from the origins listed. It is shown once, when it is created." submitLabel="Create token" busy={creating} onSubmit={() => void create()}>
          <TextField
            label="Allowed origins (one a line)"
            value={origins}
            onChange={setOrigins}
            multiline={3}
            autoComplete="off"
            placeholder="https://shop.example.com"
            helpText="scheme://host[:port], without a path."
            error={originsError}
          />
        </CreateCard>
        {created && (
          <ShownOnce title="Token created: copy it now, it is not shown again" label="The new token" value={created} onDismiss={() => setCreated(undefined)} />
        )}
        {loadError ? (
          <Banner tone="critical" title="The tokens could not be loaded" action={{ content: 'Try again', onAction: () => void load() }}>
            <p>{loadError}</p>
          </Banner>
        ) : tokens === undefined ? (
          <Card>
            <SkeletonBodyText lines={3} />
          </Card>
        ) : tokens.length === 0 ? (
          <Card>
            <Empty heading="No storefront tokens">
              <p>Create a token above for a storefront that calls the service from its own pages.</p>
            </Empty>
          </Card>
        ) : (
          <RowList label="Storefront tokens" items={tokens}>
            {(token) => (
              <>
                <BlockStack gap="100">
                  <Text as="h3" variant="headingSm">
                    <code>{token.prefix}…</code>
                  </Text>
                  <Text as="p" tone="subdued" breakWord>
                    {token.allowedOrigins.join(', ')} · created {new Date(token.createdAt).toLocaleString()}
                  </Text>
                </BlockStack>
                <Button tone="critical" onClick={() => setRevoking(token)} accessibilityLabel={`Revoke token ${token.prefix}`}>
                  Revoke
                </Button>
              </>
            )}
          </RowList>
        )}
      </BlockStack>
      {revoking && (
        <Modal
          open
          onClose={() => setRevoking(undefined)}
          title={`Revoke token ${revoking.prefix}…?`}
          primaryAction={{ content: 'Revoke token', destructive: true, loading: busy, onAction: () => void revoke(revoking) }}
          secondaryActions={[{ content: 'Cancel', onAction: () => setRevoking(undefined) }]}
        >
          <Modal.Section>
            <Text as="p">Storefronts using this token are refused from their next request. This cannot be undone.</Text>
          </Modal.Section>
        </Modal>
      )}
    </Page>
  );
}
