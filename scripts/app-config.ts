/**
 * Reads the platform app's configuration files (shopify.app.toml, the extensions'
 * shopify.extension.toml) with the TOML parser the platform's CLI itself uses (@iarna/toml),
 * for the build scripts and the tests (docs/app-configuration.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import TOML from '@iarna/toml';

/** The checkout's root, with a trailing separator. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export const EXTENSION_DIR = join(ROOT, 'extensions/gift-discount');

export type TomlTable = ReturnType<typeof TOML.parse>;

/** One TOML file, parsed (throws with the line on a syntax error). */
export function readToml(path: string): TomlTable {
  return TOML.parse(readFileSync(path, 'utf8'));
}
