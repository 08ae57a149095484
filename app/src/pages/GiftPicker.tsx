/**
 * The gift picker (issue 23 item 8): a dialog with a title search over the shop's catalog
 * (catalog-search.ts) listing each product with its picture and each variant with its price and
 * stock (GiftPickerList.tsx). One gift: each variant has a Choose button, which fills the gift.
 * Several gifts (`onPickMany`): each variant has a checkbox, and "Add n gifts" hands them all
 * over at once. The typed-in id stays for a variant the catalog mirror does not know.
 */
import { Banner, BlockStack, Button, InlineStack, Modal, SkeletonBodyText, Text, TextField } from '@shopify/polaris';
import { useEffect, useRef, useState } from 'react';
import { useCatalogSearch } from './catalog-search.ts';
import { GiftPickerList } from './GiftPickerList.tsx';
import type { PickedVariant, PickMode } from './GiftPickerList.tsx';

type Props = { label: string } & ({ onPick: (picked: PickedVariant) => void; onPickMany?: undefined } | { onPickMany: (picked: PickedVariant[]) => void; onPick?: undefined });

export function GiftPicker(props: Props) {
  const { label } = props;
  const [open, setOpen] = useState(false);
  // The dialog is unmounted on close (Polaris' own return of focus runs only after its exit
  // transition), so focus would fall to <body>: it goes back to the button that opened it.
  const opener = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.querySelector('button')?.focus();
    wasOpen.current = open;
  }, [open]);
  const many = props.onPickMany !== undefined;
  return (
    <>
      <InlineStack>
        <div ref={opener}>
          <Button onClick={() => setOpen(true)} accessibilityLabel={many ? `Add gifts from catalog to ${label}` : `Choose from catalog for ${label}`}>
            {many ? 'Add gifts from catalog' : 'Choose from catalog'}
          </Button>
        </div>
      </InlineStack>
      {open && (
        <PickerDialog
          label={label}
          many={many}
          onClose={() => setOpen(false)}
          onPick={(picked) => {
            if (props.onPickMany) props.onPickMany(picked);
            else if (picked[0]) props.onPick(picked[0]);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function PickerDialog({ label, many, onClose, onPick }: { label: string; many: boolean; onClose: () => void; onPick: (picked: PickedVariant[]) => void }) {
  const [query, setQuery] = useState('');
  const { products, nextCursor, loadError, loadingMore, loadMore } = useCatalogSearch(query);
  // Kept across searches: a merchant may tick a mug, search "tote" and tick a tote.
  const [selected, setSelected] = useState<PickedVariant[]>([]);
  const selectedIds = new Set(selected.map((picked) => picked.variantId));
  const mode: PickMode = many
    ? { kind: 'many', selected: selectedIds, onToggle: (picked, on) => setSelected((before) => (on ? [...before.filter((p) => p.variantId !== picked.variantId), picked] : before.filter((p) => p.variantId !== picked.variantId))) }
    : { kind: 'one', onPick: (picked) => onPick([picked]) };

  const count = products?.reduce((sum, p) => sum + p.variants.length, 0) ?? 0;
  const adding = `Add ${selected.length} ${selected.length === 1 ? 'gift' : 'gifts'}`;
  return (
    <Modal
      open
      onClose={onClose}
      title={many ? `Add gifts to ${label}` : `Choose ${label}`}
      primaryAction={many ? { content: adding, disabled: selected.length === 0, onAction: () => onPick(selected) } : undefined}
      secondaryActions={[{ content: 'Cancel', onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <TextField
            label="Search products"
            value={query}
            onChange={setQuery}
            autoComplete="off"
            clearButton
            onClearButtonClick={() => setQuery('')}
            helpText={many ? 'Product titles containing this text; ticked gifts stay ticked across searches' : 'Product titles containing this text'}
            autoFocus
          />
          {loadError && (
            <Banner tone="critical" title="The catalog could not be loaded">
              <p>{loadError}</p>
            </Banner>
          )}
          {!products && !loadError && <SkeletonBodyText lines={4} />}
          {products && (
            <div role="status">
              <Text as="p" tone="subdued">
                {count === 0
                  ? query.trim()
                    ? `No product matches “${query.trim()}”. You can still type the variant id in the gift field.`
                    : 'The catalog is empty: send products with POST /catalog, or type the variant id in the gift field.'
                  : `${count} variant${count === 1 ? '' : 's'}${nextCursor ? ' so far' : ''}${many ? ` · ${selected.length} ticked` : ''}`}
              </Text>
            </div>
          )}
          {products && <GiftPickerList products={products} mode={mode} />}
          {nextCursor && products && (
            <InlineStack>
              <Button onClick={() => void loadMore()} loading={loadingMore}>
                Show more products
              </Button>
            </InlineStack>
          )}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
