/**
 * Where keyboard focus goes when a screen replaces another: the control that had it (a link, the
 * "Create campaign" button) left with the old screen, so the browser puts focus on `<body>` and
 * the next Tab starts again at the top bar. Once the new screen is `ready`, its heading (the
 * Polaris Page's `<h1>`) takes focus instead, as a screen reader user expects of a new page.
 * Focus the merchant has already put somewhere (not `<body>`) is left where it is.
 */
import { useEffect } from 'react';

export function useHeadingFocus(ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [ready]);
}
