/**
 * A card holding a labelled list of rows, each a title block on the left and its actions on the
 * right (wrapping at 360 px), divided by a rule: the lists of the settings pages.
 */
import { Box, Card, InlineStack } from '@shopify/polaris';
import type { ReactNode } from 'react';

const LIST = { listStyle: 'none', margin: 0, padding: 0 } as const;
const DIVIDER = { borderTop: '1px solid var(--p-color-border-secondary)' } as const;

export function RowList<T extends { id: string }>({ label, items, children }: { label: string; items: readonly T[]; children: (item: T) => ReactNode }) {
  return (
    <Card padding="0">
      <ul aria-label={label} style={LIST}>
        {items.map((item, index) => (
          <li key={item.id} style={index > 0 ? DIVIDER : undefined}>
            <Box padding="400">
              <InlineStack align="space-between" blockAlign="center" gap="300" wrap>
                {children(item)}
              </InlineStack>
            </Box>
          </li>
        ))}
      </ul>
    </Card>
  );
}
