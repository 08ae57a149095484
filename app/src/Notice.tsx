/**
 * The outcome of an action, announced politely and dismissible. Not Polaris' Toast: its close
 * button has no accessible name (axe "button-name", serious), and it disappears on a timer a
 * keyboard or screen-reader user may miss.
 */
import { Banner, Box } from '@shopify/polaris';

export type NoticeText = { text: string; error?: boolean };

export function Notice({ notice, onDismiss }: { notice: NoticeText | undefined; onDismiss: () => void }) {
  return (
    <div role="status" aria-live="polite">
      {notice && (
        <Box paddingBlockEnd="400">
          <Banner tone={notice.error ? 'critical' : 'success'} onDismiss={onDismiss}>
            <p>{notice.text}</p>
          </Banner>
        </Box>
      )}
    </div>
  );
}
