/**
 * A secret the service shows once (a webhook signing secret, a storefront token): a read-only
 * field to select and a "Copy" button; the banner says it is not shown again.
 */
import { Banner, BlockStack, Box, Button, InlineStack, Text, TextField } from '@shopify/polaris';
import { useState } from 'react';

export function ShownOnce({ title, label, value, onDismiss }: { title: string; label: string; value: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // Clipboard access refused (permissions, an insecure origin): the field is there to select.
      setCopied('no');
    }
  };
  return (
    <Banner tone="success" title={title} onDismiss={onDismiss}>
      <Box paddingBlockStart="200">
        <BlockStack gap="200">
          <TextField label={label} value={value} readOnly autoComplete="off" monospaced selectTextOnFocus />
          <InlineStack gap="200" blockAlign="center" wrap>
            <Button onClick={() => void copy()}>{`Copy ${label.toLowerCase()}`}</Button>
            <div role="status">
              {copied && (
                <Text as="span" tone={copied === 'yes' ? 'success' : 'subdued'}>
                  {copied === 'yes' ? 'Copied to the clipboard' : 'The browser refused the clipboard: select the field and copy it'}
                </Text>
              )}
            </div>
          </InlineStack>
        </BlockStack>
      </Box>
    </Banner>
  );
}
