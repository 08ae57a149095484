/**
 * An empty state with a real heading: Polaris' EmptyState renders its `heading` as a paragraph,
 * which screen-reader users navigating by heading never reach.
 */
import { BlockStack, Box, Text } from '@shopify/polaris';
import type { ReactNode } from 'react';

export function Empty({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <Box padding="800">
      <BlockStack gap="200" inlineAlign="center">
        <Text as="h2" variant="headingMd" alignment="center">
          {heading}
        </Text>
        <div style={{ textAlign: 'center', color: 'var(--p-color-text-secondary)' }}>{children}</div>
      </BlockStack>
    </Box>
  );
}
