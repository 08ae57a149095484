/**
 * Settings' sub-navigation (`#/settings/<section>`): links, not ARIA tabs, because each section
 * is its own URL (reload and back keep the section; `#/settings/api-keys` stays where it was).
 */
import { Box, Button, InlineStack } from '@shopify/polaris';

export const SETTINGS_SECTIONS = [
  { id: 'shop', label: 'Shop settings' },
  { id: 'plan', label: 'Plan' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'storefront-tokens', label: 'Storefront tokens' },
  { id: 'api-keys', label: 'API keys' },
  { id: 'data-requests', label: 'Data requests' },
] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]['id'];

export function SettingsNav({ current }: { current: SettingsSection }) {
  return (
    <Box paddingBlockEnd="400" paddingInline={{ xs: '400', sm: '0' }}>
      <nav aria-label="Settings sections">
        <InlineStack gap="200" wrap>
          {SETTINGS_SECTIONS.map((section) => (
            <Button
              key={section.id}
              url={`#/settings/${section.id}`}
              variant={section.id === current ? 'primary' : 'secondary'}
              accessibilityLabel={section.id === current ? `${section.label} (current section)` : undefined}
            >
              {section.label}
            </Button>
          ))}
        </InlineStack>
      </nav>
    </Box>
  );
}
