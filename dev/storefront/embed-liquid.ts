/**
 * The stand-in theme's rendering of the theme app extension (extensions/gift-embed/blocks/*.liquid)
 * with liquidjs, so the browser tests and `npm run storefront:dev` load gifts.js exactly as the app
 * embed's Liquid writes it on a real shop. What it stands in for, and what not
 * (docs/storefront-dev.md, "The app embed on the stand-in"):
 * - `asset_url` gives the stand-in's own URL of a built asset (`/cdn/shop/extensions/gift-embed/assets/<name>?v=<hash>`,
 *   the shape of the platform's CDN path), served from the build of packages/storefront;
 * - the objects the blocks read: `cart.currency`, `localization.country` and `.market`,
 *   `customer` (id, tags), `request.locale`, `routes.root_url`, and `block` (`settings` with the
 *   schema's defaults, an empty `shopify_attributes`);
 * - `{% schema %}` renders nothing, as on the platform.
 * Not: the theme editor (a block is always on, with its defaults), Liquid's strict filters and
 * objects beyond these (liquidjs knows the standard filters; the platform's own filters other
 * than `asset_url` are not defined here, and theme-check is what checks them).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Liquid } from 'liquidjs';
import type { FixtureCustomer, StorefrontFixture } from './fixture.ts';

export const EXTENSION_DIR = fileURLToPath(new URL('../../extensions/gift-embed/', import.meta.url));

/** Where the stand-in serves the extension's assets. */
export const EMBED_ASSET_PATH = '/cdn/shop/extensions/gift-embed/assets/';

export type EmbedPage = {
  /** The app embed's output (target `body`): the `<script>` tag of gifts.js. */
  embed: string;
  /** The progress bar app block's output. */
  progressBlock: string;
  /** The gift reminder app block's output. */
  reminderBlock: string;
};

type Setting = { id?: string; default?: unknown };

const SCHEMA = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/;

/** A block's `settings` as the theme editor starts them: each setting's `default`. */
function defaultSettings(source: string): Record<string, unknown> {
  const schema = SCHEMA.exec(source)?.[1];
  if (schema === undefined) return {};
  const settings = (JSON.parse(schema) as { settings?: Setting[] }).settings ?? [];
  return Object.fromEntries(settings.filter((setting) => setting.id !== undefined).map((setting) => [setting.id, setting.default ?? null]));
}

/**
 * @example const render = await createEmbedRenderer({ gifts.js: 'a1b2…' }); const page = await render({ fixture, customer: null });
 */
export async function createEmbedRenderer(assetVersions: Readonly<Record<string, string>>): Promise<(state: { fixture: StorefrontFixture; customer: FixtureCustomer | null; locale?: string }) => Promise<EmbedPage>> {
  const engine = new Liquid({ root: join(EXTENSION_DIR, 'blocks'), extname: '.liquid', strictFilters: true });
  engine.registerFilter('asset_url', (name: string) => `${EMBED_ASSET_PATH}${name}?v=${assetVersions[name] ?? '0'}`);
  engine.registerTag('schema', {
    parse(token, remaining) {
      // Skip to {% endschema %}: its JSON is the theme editor's, not output.
      for (let next = remaining.shift(); next !== undefined; next = remaining.shift()) {
        if (next.getText().replace(/\s|-/g, '') === '{%endschema%}') return;
      }
      throw new Error(`{% schema %} without {% endschema %} at ${token.getPosition().join(':')}`);
    },
    render: () => '',
  });
  const blocks = ['gift-embed', 'progress-bar', 'gift-reminder'] as const;
  const sources = new Map(await Promise.all(blocks.map(async (name) => [name, await readFile(join(EXTENSION_DIR, 'blocks', `${name}.liquid`), 'utf8')] as const)));
  const templates = new Map(blocks.map((name) => [name, engine.parse(sources.get(name) ?? '')]));

  return async ({ fixture, customer, locale = 'en' }) => {
    const globals = {
      cart: { currency: { iso_code: fixture.currency } },
      localization: { country: { iso_code: fixture.market.country }, market: { handle: fixture.market.handle } },
      customer: customer === null ? null : { id: customer.id, tags: customer.tags, first_name: customer.firstName },
      request: { locale: { iso_code: locale }, design_mode: false },
      routes: { root_url: '/' },
    };
    const render = (name: (typeof blocks)[number]) =>
      engine.render(templates.get(name) ?? [], { ...globals, block: { id: name, settings: defaultSettings(sources.get(name) ?? ''), shopify_attributes: '' } }) as Promise<string>;
    return { embed: await render('gift-embed'), progressBlock: await render('progress-bar'), reminderBlock: await render('gift-reminder') };
  };
}
