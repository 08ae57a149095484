/**
 * "Start from a template" on the admin's home: each template of campaign-templates.ts with what it
 * gives; Use template opens the editor filled (`#/campaigns/new/<key>`), nothing saved yet.
 */
import { BlockStack, Box, Button, Card, InlineGrid, Text } from '@shopify/polaris';
import { CAMPAIGN_TEMPLATES } from './campaign-templates.ts';

export function TemplateChooser() {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Start from a template
        </Text>
        <InlineGrid columns={{ xs: 1, sm: 2, lg: 3 }} gap="300">
          {CAMPAIGN_TEMPLATES.map((template) => (
            <Box key={template.key} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
              <BlockStack gap="200" align="space-between">
                <BlockStack gap="100">
                  <Text as="h3" variant="headingSm">
                    {template.title}
                  </Text>
                  <Text as="p" tone="subdued">
                    {template.summary}
                  </Text>
                </BlockStack>
                <div>
                  <Button url={`#/campaigns/new/${template.key}`} accessibilityLabel={`Use template ${template.title}`}>
                    Use template
                  </Button>
                </div>
              </BlockStack>
            </Box>
          ))}
        </InlineGrid>
      </BlockStack>
    </Card>
  );
}
