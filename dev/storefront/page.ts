/**
 * The stand-in theme's one page: the products with "Add to cart", a cart drawer listing the
 * lines with their properties, and the gifts script included exactly as CONTRACT "Storefront"
 * shows, or through the theme app extension's blocks rendered from their Liquid (embed-liquid.ts). The page changes the cart only with its own `fetch('/cart/add.js')` and
 * `fetch('/cart/change.js')` calls, as a theme does, so the script sees the page's traffic the
 * way it would on a real shop; it redraws the drawer after its own calls and on the script's
 * `svc:gifts:updated` event. The drawer is a column beside the products, open at first paint;
 * with `?drawer=closed` it is an off-canvas panel parked beyond the window's right edge (as
 * themes close their cart drawers, translateX(100%)), opened by the header's "Cart" button or
 * `window.standinDrawer(true)` (a theme opening it after its own add to cart, without a press).
 */
import type { EmbedPage } from './embed-liquid.ts';
import type { FixtureCustomer, StorefrontFixture } from './fixture.ts';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const money = (minor: number): string => `$${(minor / 100).toFixed(2)}`;

export type PageOptions = {
  fixture: StorefrontFixture;
  /** `{service}/storefront/v1/gifts.js`, or another URL of the script. */
  scriptUrl: string;
  proxyPrefix: string;
  customer: FixtureCustomer | null;
  /** The theme app extension's blocks, rendered (theme `embed`); else part two's script tag. */
  embed?: EmbedPage;
  /** A "Check out" button posting the cart to `/checkout` (the stand-in's checkout, `dev:local`). */
  checkout?: boolean;
  /** `closed` (`?drawer=closed`): the cart drawer starts closed, off the window's edge; else it is open beside the products. */
  drawer?: 'open' | 'closed';
};

/** The theme's `<script src=… data-*>` tag, the attributes filled as a theme's templating would. */
export function giftsScriptTag(options: PageOptions): string {
  const { fixture, customer } = options;
  const attributes: [string, string][] = [
    ['data-proxy', options.proxyPrefix],
    ['data-currency', fixture.currency],
    ['data-market', fixture.market.handle],
    ['data-country', fixture.market.country],
    ['data-customer-id', customer ? String(customer.id) : ''],
    ['data-customer-tags', customer ? customer.tags.join(',') : ''],
    ['data-logged-in', customer ? 'true' : 'false'],
  ];
  const rendered = attributes.map(([name, value]) => `${name}="${escapeHtml(value)}"`).join(' ');
  return `<script src="${escapeHtml(options.scriptUrl)}" defer\n  ${rendered}></script>`;
}

export function productPage(options: PageOptions): string {
  const { fixture, customer } = options;
  const products = fixture.products.filter((product) => !product.hidden && product.status === 'active');
  const cards = products
    .map((product) => {
      const variants = product.variants
        .map((v) => `<option value="${v.id}">${escapeHtml(v.title)} · ${money(v.price)}</option>`)
        .join('');
      const plans = (product.sellingPlans ?? [])
        .map((plan) => `<option value="${plan.id}">${escapeHtml(plan.name)} (−${plan.discountPercent}%)</option>`)
        .join('');
      return `<article class="product" data-product-id="${product.id}" data-handle="${escapeHtml(product.handle)}">
  <h2>${escapeHtml(product.title)}</h2>
  <p class="price">${money(product.variants[0]?.price ?? 0)}</p>
  <label>Variant <select name="id">${variants}</select></label>
  ${plans ? `<label>Purchase <select name="selling_plan"><option value="">One-time purchase</option>${plans}</select></label>` : ''}
  <label>Quantity <input name="quantity" type="number" min="1" value="1"></label>
  <button type="button" class="add-to-cart">Add to cart</button>
</article>`;
    })
    .join('\n');
  const who = customer
    ? `Signed in as ${escapeHtml(customer.firstName)} · <a href="/account/logout">Sign out</a>`
    : fixture.customers.map((c) => `<a href="/account/login?customer_id=${c.id}">Sign in as ${escapeHtml(c.firstName)}</a>`).join(' · ');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(fixture.shopDomain)} · stand-in storefront</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #1f2937; }
  header { display: flex; justify-content: space-between; padding: 12px 20px; background: #f3f4f6; }
  main { display: grid; grid-template-columns: 1fr 360px; gap: 20px; padding: 20px; }
  .products { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 16px; align-content: start; }
  .product { border: 1px solid #e5e7eb; border-radius: 8px; padding: 12px; display: grid; gap: 6px; }
  .product h2 { font-size: 16px; margin: 0; }
  #cart-drawer { border-left: 1px solid #e5e7eb; padding-left: 16px; }
  .cart-line { border-bottom: 1px solid #f3f4f6; padding: 8px 0; list-style: none; }
  .cart-line dl { margin: 4px 0; font-size: 12px; color: #6b7280; display: grid; grid-template-columns: auto 1fr; gap: 0 8px; }
  .cart-line dt { font-family: monospace; }
  .cart-line dd { margin: 0; font-family: monospace; }
  #cart-lines { padding: 0; }
  #cart-error { color: #b91c1c; min-height: 1.4em; }
  button { cursor: pointer; }
  /* ?drawer=closed: an off-canvas drawer whose content starts at its left edge, so that closed it
     touches the window's right edge exactly (an edge-adjacent block: the gate's 1 px margin). */
  body[data-drawer] main { grid-template-columns: 1fr; }
  body[data-drawer] #cart-drawer { position: fixed; top: 0; right: 0; bottom: 0; width: 360px; padding: 0 16px 0 0; background: #fff; overflow: auto; transform: translateX(100%); }
  body[data-drawer=open] #cart-drawer { transform: none; box-shadow: 0 0 24px rgba(0,0,0,.2); }
</style>
</head>
<body${options.drawer === 'closed' ? ' data-drawer="closed"' : ''}>
<header><strong>${escapeHtml(fixture.shopDomain)}</strong>${options.drawer === 'closed' ? '<button type="button" id="cart-toggle">Cart</button>' : ''}<span id="account">${who}</span></header>
<main>
<section class="products">
${cards}
</section>
<aside id="cart-drawer" aria-label="Cart">
  <h2>Cart (<span id="cart-count">0</span>)</h2>
  ${options.embed ? `${options.embed.progressBlock}\n  ${options.embed.reminderBlock}` : '<div data-svc-gifts-progress></div>\n  <div data-svc-gifts-reminder></div>'}
  <p id="cart-error" role="alert"></p>
  <ul id="cart-lines"></ul>
  <p>Subtotal: <strong id="cart-total">$0.00</strong></p>
  <p><small>Gift lines show their full price here; the discount makes them free at checkout.</small></p>
  ${options.checkout ? '<form method="post" action="/checkout"><button type="submit" id="checkout">Check out</button></form>' : ''}
</aside>
</main>
<script>
(() => {
  const money = (minor) => '$' + (minor / 100).toFixed(2);
  const errorBox = document.getElementById('cart-error');
  async function cartCall(path, body) {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await response.json();
    errorBox.textContent = response.ok ? '' : json.description || json.message || 'Cart error';
    await renderCart();
    return response;
  }
  // Renders can overlap (the page's own call and the script's event): only the latest one draws.
  let renders = 0;
  async function renderCart() {
    const render = ++renders;
    const cart = await (await fetch('/cart.js', { headers: { Accept: 'application/json' } })).json();
    if (render !== renders) return;
    document.getElementById('cart-count').textContent = String(cart.item_count);
    document.getElementById('cart-total').textContent = money(cart.total_price);
    const list = document.getElementById('cart-lines');
    list.replaceChildren(...cart.items.map((item) => {
      const li = document.createElement('li');
      li.className = 'cart-line';
      li.dataset.key = item.key;
      li.dataset.variantId = String(item.variant_id);
      li.dataset.quantity = String(item.quantity);
      if (item.properties && item.properties._svc_campaign_id) li.dataset.gift = 'true';
      const title = document.createElement('div');
      title.innerHTML = '<strong></strong> × <span class="qty"></span> · <span class="line-price"></span> ';
      title.querySelector('strong').textContent = item.title;
      title.querySelector('.qty').textContent = String(item.quantity);
      title.querySelector('.line-price').textContent = money(item.final_line_price);
      for (const [label, delta] of [['−', -1], ['+', 1]]) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = label;
        button.className = delta > 0 ? 'increase' : 'decrease';
        button.addEventListener('click', () => cartCall('/cart/change.js', { id: item.key, quantity: item.quantity + delta }));
        title.append(button);
      }
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'remove';
      remove.textContent = 'Remove';
      remove.addEventListener('click', () => cartCall('/cart/change.js', { id: item.key, quantity: 0 }));
      title.append(' ', remove);
      li.append(title);
      const entries = Object.entries(item.properties || {});
      if (entries.length > 0) {
        const dl = document.createElement('dl');
        for (const [name, value] of entries) {
          const dt = document.createElement('dt');
          dt.textContent = name;
          const dd = document.createElement('dd');
          dd.textContent = String(value);
          dl.append(dt, dd);
        }
        li.append(dl);
      }
      if (item.selling_plan_allocation) {
        const plan = document.createElement('div');
        plan.className = 'selling-plan';
        plan.textContent = item.selling_plan_allocation.selling_plan.name;
        li.append(plan);
      }
      return li;
    }));
    document.body.dataset.cartRendered = String(Date.now());
  }
  for (const card of document.querySelectorAll('.product')) {
    card.querySelector('.add-to-cart').addEventListener('click', () => {
      const plan = card.querySelector('select[name=selling_plan]');
      const item = {
        id: Number(card.querySelector('select[name=id]').value),
        quantity: Number(card.querySelector('input[name=quantity]').value),
      };
      if (plan && plan.value) item.selling_plan = Number(plan.value);
      cartCall('/cart/add.js', { items: [item] });
    });
  }
  document.addEventListener('svc:gifts:updated', () => void renderCart());
  window.standinRenderCart = renderCart;
  window.standinDrawer = (open) => {
    if (document.body.dataset.drawer) document.body.dataset.drawer = open ? 'open' : 'closed';
  };
  document.getElementById('cart-toggle')?.addEventListener('click', () => window.standinDrawer(document.body.dataset.drawer !== 'open'));
  void renderCart();
})();
</script>
${options.embed ? options.embed.embed : giftsScriptTag(options)}
</body>
</html>
`;
}
