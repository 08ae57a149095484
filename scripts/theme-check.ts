/**
 * `npm run theme-check`: the platform's linter (`@shopify/theme-check-node`) on the theme app
 * extension with its theme-app-extension configuration (extensions/gift-embed/.theme-check.yml),
 * offline; exits 1 on any error. The assets must be built first (`npm run build:embed`): the
 * linter checks that every `asset_url` names a file of assets/.
 */
import { fileURLToPath } from 'node:url';
import { runThemeCheck } from '../dev/storefront/theme-check.ts';

const extensionDir = fileURLToPath(new URL('../extensions/gift-embed/', import.meta.url));
const offenses = await runThemeCheck(extensionDir);
for (const offense of offenses) console.log(`${offense.severity === 0 ? 'error' : offense.severity === 1 ? 'warning' : 'info'} ${offense.check} ${offense.uri}: ${offense.message}`);
const errors = offenses.filter((offense) => offense.severity === 0).length;
console.log(`theme-check: ${errors} errors, ${offenses.length - errors} other offenses`);
if (errors > 0) process.exitCode = 1;
