/**
 * Landmarks Polaris' Frame leaves out (axe's `region` rule): its top bar is a plain `<div>`, so
 * the shop's domain in it is outside every landmark; it becomes the page's banner. The wrapper
 * around the `<nav>` carries an `aria-label` that makes axe count it as content outside a
 * landmark; the label is only needed while that wrapper is the narrow screen's navigation sheet
 * (a dialog, which needs a name), so it is there only then.
 */
import { useLayoutEffect } from 'react';

const TOP_BAR = 'AppFrameTopBar';
const NAV_WRAPPER = 'AppFrameNav';

export function useFrameLandmarks(navigationLabel: string): void {
  useLayoutEffect(() => {
    document.getElementById(TOP_BAR)?.setAttribute('role', 'banner');
  }, []);
  // After every render: the Frame sets role="dialog" on the wrapper while the sheet is open.
  useLayoutEffect(() => {
    const wrapper = document.getElementById(NAV_WRAPPER);
    if (!wrapper) return;
    if (wrapper.getAttribute('role') === 'dialog') wrapper.setAttribute('aria-label', navigationLabel);
    else wrapper.removeAttribute('aria-label');
  });
}
