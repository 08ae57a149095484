/**
 * The theme app extension's built assets (extensions/gift-embed/assets/): what
 * `npm run build:embed` writes, the theme-check test lints and the stand-in storefront serves
 * through its `asset_url`.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHUNK_NAMES, buildStorefrontScript } from '@gcrs/storefront/build-script';
import type { StorefrontScript } from '@gcrs/storefront/build-script';

/** The asset names the app embed's Liquid asks `asset_url` for. */
export const EMBED_ASSETS = { main: 'gifts.js', widgets: 'gifts-widgets.js', progress: 'gifts-progress.js', debug: 'gifts-debug.js' } as const;

export type WrittenAsset = { path: string; bytes: number; gzipBytes: number };

/** Every asset's bytes by file name: the first load and its chunks. */
export function embedAssetFiles(script: StorefrontScript): Map<string, Buffer> {
  return new Map([[EMBED_ASSETS.main, script.code], ...CHUNK_NAMES.map((name): [string, Buffer] => [EMBED_ASSETS[name], script.chunks[name].code])]);
}

/**
 * Builds the script and writes its assets into `<extensionDir>/assets/`, each atomically
 * (a theme-check or a deploy reading the folder meanwhile sees the old file or the new one).
 *
 * @example await writeEmbedAssets('extensions/gift-embed');
 */
export async function writeEmbedAssets(extensionDir: string, script?: StorefrontScript): Promise<WrittenAsset[]> {
  const built = script ?? (await buildStorefrontScript());
  const assetsDir = join(extensionDir, 'assets');
  await mkdir(assetsDir, { recursive: true });
  const written: WrittenAsset[] = [];
  for (const [name, code] of embedAssetFiles(built)) {
    const path = join(assetsDir, name);
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, code);
    await rename(temporary, path);
    written.push({ path, bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength });
  }
  return written;
}
