/**
 * Settings (`#/settings/<section>`): shop settings, plan, webhooks, storefront tokens, API keys,
 * data requests. Each section is a screen of its own with the sub-navigation on top; `#/settings`
 * (and an unknown section) opens shop settings.
 */
import type { RouteObject } from 'react-router';
import { ApiKeysPage, loadApiKeys } from '../ApiKeysPage.tsx';
import { DataRequestsPage, loadDataRequests } from './DataRequestsPage.tsx';
import { PlanPage, loadBilling } from './PlanPage.tsx';
import { ShopSettingsPage, loadShopSettings } from './ShopSettingsPage.tsx';
import { StorefrontTokensPage, loadStorefrontTokens } from './StorefrontTokensPage.tsx';
import { WebhooksPage, loadWebhooks } from './WebhooksPage.tsx';

export const SETTINGS_ROUTES: RouteObject[] = [
  { index: true, loader: loadShopSettings, element: <ShopSettingsPage /> },
  { path: 'plan', loader: loadBilling, element: <PlanPage /> },
  { path: 'webhooks', loader: loadWebhooks, element: <WebhooksPage /> },
  { path: 'storefront-tokens', loader: loadStorefrontTokens, element: <StorefrontTokensPage /> },
  { path: 'api-keys', loader: loadApiKeys, element: <ApiKeysPage /> },
  { path: 'data-requests', loader: loadDataRequests, element: <DataRequestsPage /> },
  { path: '*', loader: loadShopSettings, element: <ShopSettingsPage /> },
];
