/**
 * The fixed values of `npm run dev:local` (dev/local/dev.ts), shared with its browser test:
 * dev-only app credentials, the operator's plan prices, and the platform's session token that
 * App Bridge would give the embedded admin.
 */
import { sessionTokenFor } from '../platform/open-app.ts';

/** Not secrets: they exist only on this machine, between the service and the stand-ins. */
export const DEV_LOCAL_APP_KEY = 'dev-local-app-key';
export const DEV_LOCAL_APP_SECRET = 'dev-local-app-secret-not-for-production';
/** The function id the install's automatic discount is created on (the stand-in accepts any). */
export const DEV_LOCAL_FUNCTION_ID = 'gid://shopify/ShopifyFunction/dev-local-gift-discount';

/** PLATFORM_BILLING_PLANS of the run: the prices Settings → Plan offers. */
export const DEV_LOCAL_PRICES = {
  growth: { amount: '19.00', currencyCode: 'USD', interval: 'EVERY_30_DAYS' },
  pro: { amount: '49.00', currencyCode: 'USD', interval: 'EVERY_30_DAYS' },
};

/** A session token of `domain` for this app, valid one minute, as the platform signs them (App Bridge's `idToken()`). */
export const devSessionToken = (domain: string): string => sessionTokenFor({ appKey: DEV_LOCAL_APP_KEY, appSecret: DEV_LOCAL_APP_SECRET, domain });
