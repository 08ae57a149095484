/**
 * The platform's theme linter on a theme app extension, offline. theme-check-node fetches the
 * Liquid docs (filters, objects, tags, schemas) from the platform's public docs repository at
 * setup, and falls back to the copy its package ships (`@shopify/theme-check-docs-updater/data`)
 * when that fails; `SHOPIFY_TLD_ROOT` (its own setting for a local docs root) pointed at a folder
 * that does not exist makes the fetch fail at once, without the network, so every run uses the
 * shipped copy (or the cache of an earlier online run). The configuration is the extension's
 * `.theme-check.yml` (extends `theme-check:theme-app-extension`).
 */
import { join } from 'node:path';
import type { Offense } from '@shopify/theme-check-node';

/**
 * @example const errors = (await runThemeCheck('extensions/gift-embed')).filter((offense) => offense.severity === 0);
 */
export async function runThemeCheck(extensionDir: string, log: (message: string) => void = () => {}): Promise<Offense[]> {
  process.env.SHOPIFY_TLD_ROOT ??= join(extensionDir, '.theme-check-offline-docs-none');
  const { themeCheckRun } = await import('@shopify/theme-check-node');
  const run = await themeCheckRun(extensionDir, join(extensionDir, '.theme-check.yml'), log);
  return run.offenses;
}
