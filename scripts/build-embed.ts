/**
 * `npm run build:embed`: the theme app extension's assets, built from packages/storefront
 * (never copied by hand, never committed): extensions/gift-embed/assets/gifts.js (the first
 * load, which the app embed's `{{ 'gifts.js' | asset_url }}` loads) and gifts-widgets.js (the
 * on-demand chunk, `data-widgets-src`). The platform wants a flat assets/ folder. Prints each
 * asset's raw and gzip size. `npm run build` runs it before `shopify app deploy`.
 */
import { fileURLToPath } from 'node:url';
import { writeEmbedAssets } from '../dev/storefront/embed-assets.ts';

const extensionDir = fileURLToPath(new URL('../extensions/gift-embed/', import.meta.url));
for (const asset of await writeEmbedAssets(extensionDir)) {
  console.log(`${asset.path}: ${asset.bytes} B raw, ${asset.gzipBytes} B gzip`);
}
