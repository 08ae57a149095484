/**
 * Which page of the shop this is, from its path, for the widgets placed by page
 * (`progressBar.placement: cart_page`, `reminder.showOnProductPage`): the platform's paths,
 * with or without a locale prefix (`/fr/cart`) or a collection (`/collections/all/products/tee`).
 */

/** @example isCartPage('/fr-ca/cart') // true */
export function isCartPage(path: string): boolean {
  return /^(\/[a-z]{2}(-[a-z]{2,4})?)?\/cart\/?$/i.test(path);
}

/** @example isProductPage('/collections/all/products/tee') // true */
export function isProductPage(path: string): boolean {
  return /\/products\/[^/]+\/?$/.test(path);
}

/** Where a widget is drawn: the page (its body) at its path; the admin's preview passes its box and the path it shows. */
export type WidgetPlace = { root: Element; path: string };

export function thisPage(): WidgetPlace {
  return { root: document.body, path: location.pathname };
}
