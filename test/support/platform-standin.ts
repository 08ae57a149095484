/**
 * The stand-in platform (dev/platform/platform.ts) for tests: started on a free local port, with
 * helpers to give a shop an access token, revoke one (the platform then answers 401), and read
 * the gift discount it holds.
 */
import { startPlatformStandin } from '../../dev/platform/platform.ts';
import type { PlatformStandin } from '../../dev/platform/platform.ts';

export const STANDIN_APP_KEY = 'standin-app-client-id';

/** @example const platform = await startTestPlatform(SECRET); createTestApp({ PLATFORM_ADMIN_API_URL: platform.url, … }); */
export function startTestPlatform(appSecret: string, appKey = STANDIN_APP_KEY): Promise<PlatformStandin> {
  return startPlatformStandin({ appKey, appSecret });
}

/** Makes `token` an access token of the shop `domain` (added to the platform if new). */
export function grantToken(platform: PlatformStandin, domain: string, token: string): void {
  const shop = platform.shops.get(domain) ?? platform.addShop({ domain });
  shop.accessTokens.add(token);
}

/** Revokes `token` (401 from then on); returns what gives it back. */
export function revokeToken(platform: PlatformStandin, token: string): () => void {
  const shop = platform.shopByToken(token);
  shop?.accessTokens.delete(token);
  return () => shop?.accessTokens.add(token);
}

/** The id of the gift discount the platform holds for the shop, if created. */
export const discountIdOf = (platform: PlatformStandin, domain: string): string | undefined => platform.discounts.discounts.get(domain)?.[0]?.id;
