/**
 * `npm run platform:schema [-- <dev-mcp version> <api version>]`: refreshes the Admin API schema
 * the tests validate the service's GraphQL documents against (dev/platform/schema/README.md).
 * The platform publishes the introspection JSON of every API version in its npm package
 * `@shopify/dev-mcp` (`dist/data/admin_<version>.json.gz`); this packs that package with npm,
 * takes the one file out and prints its SHA-256 for the README.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [devMcpVersion = '1.16.0', apiVersion = '2025-10'] = process.argv.slice(2);
const file = `admin_${apiVersion}.json.gz`;
const target = new URL(`../dev/platform/schema/${file}`, import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'gcrs-schema-'));
try {
  const packed = execFileSync('npm', ['pack', `@shopify/dev-mcp@${devMcpVersion}`, '--pack-destination', work, '--silent'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
  execFileSync('tar', ['-xzf', join(work, packed), '-C', work, `package/dist/data/${file}`]);
  copyFileSync(join(work, 'package/dist/data', file), target);
  const sha256 = createHash('sha256').update(readFileSync(target)).digest('hex');
  process.stdout.write(`${target}\n@shopify/dev-mcp@${devMcpVersion} dist/data/${file}\nsha256 ${sha256}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
