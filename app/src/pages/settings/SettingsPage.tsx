/**
 * Settings (`#/settings/<section>`): shop settings, plan, webhooks, storefront tokens, API keys,
 * data requests. Each section is a page of its own with the sub-navigation on top; `#/settings`
 * opens shop settings.
 */
import { ApiKeysPage } from '../ApiKeysPage.tsx';
import { DataRequestsPage } from './DataRequestsPage.tsx';
import { PlanPage } from './PlanPage.tsx';
import { ShopSettingsPage } from './ShopSettingsPage.tsx';
import { StorefrontTokensPage } from './StorefrontTokensPage.tsx';
import { WebhooksPage } from './WebhooksPage.tsx';

// The layout re-renders on every hash change, so the section is read from the hash as it is now.
export function SettingsPage() {
  const section = window.location.hash.replace(/^#\/settings\/?/, '').split('/')[0];
  if (section === 'plan') return <PlanPage />;
  if (section === 'webhooks') return <WebhooksPage />;
  if (section === 'storefront-tokens') return <StorefrontTokensPage />;
  if (section === 'api-keys') return <ApiKeysPage />;
  if (section === 'data-requests') return <DataRequestsPage />;
  return <ShopSettingsPage />;
}
