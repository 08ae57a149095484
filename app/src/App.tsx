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
import { ApiKeysPage } from './pages/ApiKeysPage.tsx';
import { CampaignsPage } from './pages/CampaignsPage.tsx';

type Route = { path: string; label: string; built: boolean };

export const ROUTES: readonly Route[] = [
  { path: '/campaigns', label: 'Campaigns', built: true },
  { path: '/simulator', label: 'Simulator', built: false },
  { path: '/widgets', label: 'Widgets', built: false },
  { path: '/analytics', label: 'Analytics', built: false },
  { path: '/experiments', label: 'Experiments', built: false },
  { path: '/settings/api-keys', label: 'Settings', built: true },
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

  const route = ROUTES.find((candidate) => path === candidate.path || path.startsWith(`${candidate.path}/`)) ?? ROUTES[0];
  let content: ReactNode;
  if (route?.path === '/campaigns') content = <CampaignsPage />;
  else if (route?.path === '/settings/api-keys') content = <ApiKeysPage />;
  else content = <NotBuilt label={route?.label ?? 'Page'} />;

  const topBar = (
    <TopBar
      showNavigationToggle
      onNavigationToggle={toggleNav}
      secondaryMenu={<Button onClick={() => void signOut()}>Sign out</Button>}
      contextControl={<span style={{ color: 'var(--p-color-text-inverse)', fontWeight: 650, padding: '0 0.5rem' }}>{session.shop.domain}</span>}
    />
  );
  const navigation = (
    <Navigation location={`#${route?.path ?? ''}`} ariaLabelledBy="nav-title">
      <Navigation.Section
        title="Gift campaigns"
        items={ROUTES.map((item) => ({
          url: `#${item.path}`,
          label: item.built ? item.label : `${item.label} (not built yet)`,
          selected: item.path === route?.path,
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
      {content}
    </Frame>
  );
}
