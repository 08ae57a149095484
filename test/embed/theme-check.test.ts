/**
 * CONTRACT part three, "Theme app extension": the platform's linter (theme-check, its
 * theme-app-extension configuration, offline) reports no error on extensions/gift-embed with its
 * assets built as `npm run build:embed` builds them, and the app embed fills exactly the data-*
 * the script reads.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_ASSETS, writeEmbedAssets } from '../../dev/storefront/embed-assets.ts';
import { runThemeCheck } from '../../dev/storefront/theme-check.ts';

const EXTENSION = fileURLToPath(new URL('../../extensions/gift-embed/', import.meta.url));

describe('the theme app extension', () => {
  let copy: string;
  beforeAll(async () => {
    // A copy with freshly built assets: the repository's assets/ is git-ignored and may be stale or absent.
    copy = await mkdtemp(join(tmpdir(), 'gcrs-gift-embed-'));
    await cp(EXTENSION, copy, { recursive: true, filter: (source) => !source.includes('/assets') });
    await writeEmbedAssets(copy);
  }, 60_000);
  afterAll(async () => {
    await rm(copy, { recursive: true, force: true });
  });

  it('passes theme-check with no error, offline', async () => {
    const offenses = await runThemeCheck(copy);
    expect(offenses.filter((offense) => offense.severity === 0).map((offense) => `${offense.check}: ${offense.message}`)).toEqual([]);
  }, 60_000);

  it('is caught by theme-check when an asset the embed loads is missing', async () => {
    await rm(join(copy, 'assets', EMBED_ASSETS.widgets));
    try {
      const offenses = await runThemeCheck(copy);
      expect(offenses.filter((offense) => offense.severity === 0).map((offense) => offense.check)).toEqual(['MissingAsset']);
    } finally {
      await writeEmbedAssets(copy);
    }
  }, 60_000);

  it('fills every data-* attribute the script reads, from the cart, localization, customer and request objects', async () => {
    const embed = await readFile(join(EXTENSION, 'blocks', 'gift-embed.liquid'), 'utf8');
    const config = await readFile(fileURLToPath(new URL('../../packages/storefront/src/script-config.ts', import.meta.url)), 'utf8');
    const read = [...config.matchAll(/dataset\.(\w+)/g)].map((match) => `data-${(match[1] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    const filled = [...embed.matchAll(/\s(data-[a-z-]+)="/g)].map((match) => match[1]);
    expect(new Set(filled)).toEqual(new Set(read));
    expect(embed).toContain('"target": "body"');
    expect(embed).toContain("{{ 'gifts.js' | asset_url }}");
  });
});
