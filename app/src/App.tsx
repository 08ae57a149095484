/**
 * The layout: Polaris Frame with the navigation (a sheet behind the menu button below 768 px),
 * hash routes, and the session. Screens not built yet say so plainly.
 */
import { Banner, Button, Card, Frame, Navigation, Page, Spinner, Text, TopBar } from '@shopify/polaris';
import { Empty } from './Empty.tsx';
import { useCallback, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { api, loadSession } from './api/client.ts';
import type { Session } from './api/client.ts';
import { AnalyticsPage } from './pages/AnalyticsPage.tsx';
import { CampaignEditorPage } from './pages/CampaignEditorPage.tsx';
import { CampaignsPage } from './pages/CampaignsPage.tsx';
import { ExperimentsPage } from './pages/ExperimentsPage.tsx';
import { LadderPage } from './pages/ladder/LadderPage.tsx';
import { RepairsPage } from './pages/RepairsPage.tsx';
import { SettingsPage } from './pages/settings/SettingsPage.tsx';
import { SimulatorPage } from './pages/SimulatorPage.tsx';
import { WidgetsPage } from './pages/WidgetsPage.tsx';
import { ShopCurrency } from './pages/ConditionTreeBuilder.tsx';

/**
 * A screen of the navigation; `page` is absent while it is not built (it then says so). A screen
 * with `nav` is not in the navigation: it highlights that item (a path ending in `/*` matches
 * everything under it).
 */
type Route = { path: string; label: string; page?: () => ReactNode; nav?: string };

// One line per screen: a new screen is its page file and its line here.
export const ROUTES: readonly Route[] = [
  { path: '/campaigns/*', label: 'Campaign editor', nav: '/campaigns', page: () => <CampaignEditorPage key={window.location.hash} /> },
  { path: '/ladder/*', label: 'Tier ladder', nav: '/campaigns', page: () => <LadderPage key={window.location.hash} /> },
  { path: '/campaigns', label: 'Campaigns', page: () => <CampaignsPage /> },
  { path: '/simulator', label: 'Simulator', page: () => <SimulatorPage /> },
  { path: '/widgets', label: 'Widgets', page: () => <WidgetsPage /> },
  { path: '/analytics', label: 'Analytics', page: () => <AnalyticsPage /> },
  { path: '/experiments', label: 'Experiments', page: () => <ExperimentsPage /> },
  { path: '/repairs', label: 'Repaired orders', page: () => <RepairsPage /> },
  { path: '/settings', label: 'Settings', page: () => <SettingsPage /> },
];

function useHashPath(): string {
  const read = () => window.location.hash.replace(/^#/, '') || '/campaigns';
  const [path, setPath] = useState(read);
  useEffect(() => {
    const onChange = () => setPath(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return path;
}

function NotBuilt({ label }: { label: string }) {
  return (
    <Page title={label}>
      <Card>
        <Empty heading={`${label} is not built yet`}>
          <p>This screen is coming. Until then the same operations are in the API (see /docs).</p>
        </Empty>
      </Card>
    </Page>
  );
}

function SignedOut() {
  return (
    <Page title="Sign in to Gift campaigns">
      <Card>
        <Text as="p">
          Your session has ended or you are not signed in. Ask for a sign-in link with{' '}
          <code>npm run cli -- shop:login-link &lt;shopId&gt;</code> and open it in this browser.
        </Text>
      </Card>
    </Page>
  );
}

export function App() {
  const path = useHashPath();
  const [session, setSession] = useState<Session | undefined | 'loading' | 'failed'>('loading');
  const [navOpen, setNavOpen] = useState(false);

  useEffect(() => {
    loadSession()
      .then(setSession)
      .catch(() => setSession('failed'));
  }, []);

  const toggleNav = useCallback(() => setNavOpen((open) => !open), []);
  const signOut = useCallback(async () => {
    await api.DELETE('/app/api/v1/session');
    setSession(undefined);
  }, []);

  if (session === 'loading') {
    return (
      <div style={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }}>
        <Spinner accessibilityLabel="Loading the session" />
      </div>
    );
  }
  if (session === 'failed') {
    return (
      <Page title="Gift campaigns">
        <Banner tone="critical" title="The service did not answer">
          <p>Reload the page to try again.</p>
        </Banner>
      </Page>
    );
  }
  if (session === undefined) return <SignedOut />;

  const matches = (candidate: Route) =>
    candidate.path.endsWith('/*') ? path.startsWith(candidate.path.slice(0, -1)) : path === candidate.path || path.startsWith(`${candidate.path}/`);
  const route = ROUTES.find(matches) ?? ROUTES.find((candidate) => !candidate.nav);
  const navPath = route?.nav ?? route?.path;
  const content: ReactNode = route?.page ? route.page() : <NotBuilt label={route?.label ?? 'Page'} />;

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
    <Navigation location={`#${path}`} ariaLabelledBy="nav-title">
      <Navigation.Section
        title="Gift campaigns"
        items={ROUTES.filter((item) => !item.nav).map((item) => ({
          url: `#${item.path}`,
          label: item.page ? item.label : `${item.label} (not built yet)`,
          selected: item.path === navPath,
          onClick: () => setNavOpen(false),
        }))}
      />
    </Navigation>
  );
  return (
    <Frame topBar={topBar} navigation={navigation} showMobileNavigation={navOpen} onNavigationDismiss={toggleNav} skipToContentTarget={undefined}>
      <span id="nav-title" hidden>
        Main navigation
      </span>
      <ShopCurrency.Provider value={session.shop.currency}>{content}</ShopCurrency.Provider>
    </Frame>
  );
}
