/** Settings → API keys: create (the key shown once), list, revoke with confirmation. */
import { Banner, BlockStack, Box, Button, Card, Modal, Page, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { Empty } from '../Empty.tsx';
import { RowList } from '../RowList.tsx';
import { useCallback, useState } from 'react';
import { api, errorText } from '../api/client.ts';
import { Notice } from '../Notice.tsx';
import type { NoticeText } from '../Notice.tsx';
import type { ApiKey } from '../api/client.ts';
import { SettingsNav } from './settings/SettingsNav.tsx';
import { useLoaded } from '../useLoaded.ts';
import { CreateCard } from './settings/CreateCard.tsx';

/** The route's loader (app/src/pages/settings/routes.tsx). */
export const loadApiKeys = () => api.GET('/app/api/v1/api-keys');

export function ApiKeysPage() {
  const loaded = useLoaded<typeof loadApiKeys>('The keys could not be loaded');
  const { error: loadError, reload: load } = loaded;
  const keys = loaded.value?.apiKeys;
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ key: string; name: string } | undefined>();
  const [revoking, setRevoking] = useState<ApiKey | undefined>();
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<NoticeText | undefined>();

  const create = useCallback(async () => {
    setCreating(true);
    const { data, error } = await api.POST('/app/api/v1/api-keys', { body: { name: name.trim() || 'API key' } });
    setCreating(false);
    if (data) {
      setCreated({ key: data.key, name: data.apiKey.name });
      setName('');
    } else setToast({ text: errorText(error, 'The key could not be created'), error: true });
    await load();
  }, [name, load]);

  const revoke = useCallback(
    async (key: ApiKey) => {
      setBusy(true);
      const { response, error } = await api.DELETE('/app/api/v1/api-keys/{keyId}', { params: { path: { keyId: key.id } } });
      setBusy(false);
      setRevoking(undefined);
      setToast(response.ok ? { text: `${key.name} is revoked` } : { text: errorText(error, 'The key could not be revoked'), error: true });
      await load();
    },
    [load],
  );

  return (
    <Page title="Settings" subtitle="API keys">
      <SettingsNav current="api-keys" />
      <Notice notice={toast} onDismiss={() => setToast(undefined)} />
      <BlockStack gap="400">
        <CreateCard title="Create an API key" description="A key opens the whole API for this shop (Scale plan). It is shown once, when it is created." submitLabel="Create key" busy={creating} onSubmit={() => void create()}>
          <TextField label="Key name" value={name} onChange={setName} autoComplete="off" placeholder="e.g. Headless storefront" />
        </CreateCard>
        {created && (
          <Banner tone="success" title={`Key "${created.name}" created: copy it now, it is not shown again`} onDismiss={() => setCreated(undefined)}>
            <Box paddingBlockStart="200">
              <TextField label="The new key" value={created.key} readOnly autoComplete="off" monospaced selectTextOnFocus />
            </Box>
          </Banner>
        )}
        {loadError ? (
          <Banner tone="critical" title="The keys could not be loaded" action={{ content: 'Try again', onAction: () => void load() }}>
            <p>{loadError}</p>
          </Banner>
        ) : keys === undefined ? (
          <Card>
            <SkeletonBodyText lines={3} />
          </Card>
        ) : keys.length === 0 ? (
          <Card>
            <Empty heading="No API keys">
              <p>Create a key above to call the API from your own code.</p>
            </Empty>
          </Card>
        ) : (
          <RowList label="API keys" items={keys}>
            {(key) => (
              <>
                <BlockStack gap="100">
                  <Text as="h3" variant="headingSm">
                    {key.name}
                  </Text>
                  <Text as="p" tone="subdued">
                    <code>{key.prefix}…</code> · created {new Date(key.createdAt).toLocaleString()}
                  </Text>
                </BlockStack>
                <Button tone="critical" onClick={() => setRevoking(key)} accessibilityLabel={`Revoke ${key.name}`}>
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
          title={`Revoke ${revoking.name}?`}
          primaryAction={{ content: 'Revoke key', destructive: true, loading: busy, onAction: () => void revoke(revoking) }}
          secondaryActions={[{ content: 'Cancel', onAction: () => setRevoking(undefined) }]}
        >
          <Modal.Section>
            <Text as="p">Calls made with this key are refused from now on. This cannot be undone.</Text>
          </Modal.Section>
        </Modal>
      )}
    </Page>
  );
}
