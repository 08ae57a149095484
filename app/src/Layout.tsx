/**
 * The layout: Polaris Frame with the navigation (a sheet behind the menu button below 768 px),
 * the screen of the address (app/src/routes.tsx) and the session; the sign-in page when signed out.
 */
import { Banner, Button, Card, Frame, Loading, Navigation, Page, Spinner, Text, TopBar } from '@shopify/polaris';
import { useCallback, useState } from 'react';
import { Outlet, useLocation, useNavigation, useRevalidator } from 'react-router';
import { api } from './api/client.ts';
import { useFrameLandmarks } from './frame-landmarks.ts';
import { ShopCurrency } from './pages/ConditionFields.tsx';
import { useSession } from './session.ts';

// The pages outside the frame are a <main> of their own: no content outside a landmark (axe `region`).
function SignedOut() {
  return (
    <main>
      <Page title="Sign in to Gift campaigns">
        <Card>
          <Text as="p">
            Your session has ended or you are not signed in. Ask for a sign-in link with{' '}
            <code>npm run cli -- shop:login-link &lt;shopId&gt;</code> and open it in this browser.
          </Text>
        </Card>
      </Page>
    </main>
  );
}

/** The root route's error element: a loader could not reach the service. */
export function ServiceDown() {
  return (
    <main>
      <Page title="Gift campaigns">
        <Banner tone="critical" title="The service did not answer">
          <p>Reload the page to try again.</p>
        </Banner>
      </Page>
    </main>
  );
}

/** Shown while the root route loads the session (and the first screen its data). */
export function LoadingSession() {
  return (
    <main style={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }}>
      <Spinner accessibilityLabel="Loading the session" />
    </main>
  );
}

const NAVIGATION_LABEL = 'Main navigation';

/** The navigation's items: a screen under one (`/campaigns/<id>`, or a path in `also`) highlights it. */
export const NAVIGATION: ReadonlyArray<{ path: string; label: string; also?: string }> = [
  { path: '/campaigns', label: 'Campaigns', also: '/ladder' },
  { path: '/simulator', label: 'Simulator' },
  { path: '/widgets', label: 'Widgets' },
  { path: '/analytics', label: 'Analytics' },
  { path: '/experiments', label: 'Experiments' },
  { path: '/repairs', label: 'Repaired orders' },
  { path: '/settings', label: 'Settings' },
] as const;

/** The root route's element: the frame around the screen of the address, or the sign-in page. */
export function Layout() {
  const session = useSession();
  const { pathname } = useLocation();
  const { state } = useNavigation();
  const revalidator = useRevalidator();
  const [navOpen, setNavOpen] = useState(false);
  useFrameLandmarks(NAVIGATION_LABEL);

  const toggleNav = useCallback(() => setNavOpen((open) => !open), []);
  const signOut = useCallback(async () => {
    await api.DELETE('/app/api/v1/session');
    await revalidator.revalidate();
  }, [revalidator]);

  if (session === undefined) return <SignedOut />;

  const under = (path: string | undefined) => path !== undefined && (pathname === path || pathname.startsWith(`${path}/`));
  const current = NAVIGATION.find((item) => under(item.path) || under(item.also));
  const topBar = (
    <TopBar
      showNavigationToggle
      onNavigationToggle={toggleNav}
      // The top bar's right column is as narrow as its content allows: nowrap keeps "Sign out" on one line at 360 px.
      secondaryMenu={
        <span style={{ display: 'inline-block', whiteSpace: 'nowrap', marginRight: 'var(--p-space-200)' }}>
          <Button onClick={() => void signOut()}>Sign out</Button>
        </span>
      }
      // A long domain ends in an ellipsis (the whole of it in the tooltip) instead of running under the search column.
      contextControl={
        <span title={session.shop.domain} style={{ display: 'block', color: 'var(--p-color-text-inverse)', fontWeight: 650, padding: '0 0.5rem', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {session.shop.domain}
        </span>
      }
    />
  );
  const navigation = (
    <Navigation location={`#${pathname}`} ariaLabelledBy="nav-title">
      <Navigation.Section
        title="Gift campaigns"
        items={NAVIGATION.map((item) => ({ url: `#${item.path}`, label: item.label, selected: item === current, onClick: () => setNavOpen(false) }))}
      />
    </Navigation>
  );
  return (
    <Frame topBar={topBar} navigation={navigation} showMobileNavigation={navOpen} onNavigationDismiss={toggleNav} skipToContentTarget={undefined}>
      <span id="nav-title" hidden>
        {NAVIGATION_LABEL}
      </span>
      {state === 'loading' && <Loading />}
      <ShopCurrency.Provider value={session.shop.currency}>
        <Outlet />
      </ShopCurrency.Provider>
    </Frame>
  );
}
