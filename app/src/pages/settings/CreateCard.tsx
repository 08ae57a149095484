/**
 * The card that creates something a settings page lists (an API key, a webhook endpoint, a
 * storefront token): a heading, what it does, the page's fields, and one submit button.
 */
import { BlockStack, Button, Card, InlineStack, Text } from '@shopify/polaris';
import type { ReactNode } from 'react';

export function CreateCard(props: { title: string; description: string; submitLabel: string; busy: boolean; onSubmit: () => void; children: ReactNode }) {
  return (
    <Card>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          props.onSubmit();
        }}
      >
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {props.title}
          </Text>
          <Text as="p" tone="subdued">
            {props.description}
          </Text>
          {props.children}
          <InlineStack>
            <Button submit variant="primary" loading={props.busy}>
              {props.submitLabel}
            </Button>
          </InlineStack>
        </BlockStack>
      </form>
    </Card>
  );
}
