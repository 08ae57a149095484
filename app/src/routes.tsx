/**
 * The screens and their addresses (`/app/#<path>`), one line each: a new screen is its page file
 * and its line here (and in the layout's NAVIGATION when it has an entry there). A route's
 * `loader` fetches what its page shows before the page renders (app/src/useLoaded.ts); the root
 * route's loader reads the session first.
 */
import { redirect, useParams } from 'react-router';
import type { RouteObject } from 'react-router';
import { loadSession } from './api/client.ts';
import { Layout, LoadingSession, ServiceDown } from './Layout.tsx';
import { AnalyticsPage } from './pages/AnalyticsPage.tsx';
import { CampaignEditorPage } from './pages/CampaignEditorPage.tsx';
import { CampaignsPage, loadCampaigns } from './pages/CampaignsPage.tsx';
import { ExperimentsPage } from './pages/ExperimentsPage.tsx';
import { LadderPage } from './pages/ladder/LadderPage.tsx';
import { RepairsPage, loadRepairs } from './pages/RepairsPage.tsx';
import { SETTINGS_ROUTES } from './pages/settings/routes.tsx';
import { SimulatorPage, loadSimulator } from './pages/SimulatorPage.tsx';
import { WidgetsPage } from './pages/WidgetsPage.tsx';
import { ROOT_ROUTE } from './session.ts';

/** A new editor per campaign: going from one campaign (or "new", or a template) to another starts afresh. */
function CampaignEditorRoute() {
  const { id, '*': template } = useParams();
  return <CampaignEditorPage key={`${id}/${template ?? ''}`} />;
}

/** A new ladder editor per campaign, as for the campaign editor. */
function LadderRoute() {
  const { id } = useParams();
  return <LadderPage key={id} />;
}

/**
 * `/app/` and an unknown address open the campaigns, by a loader's redirect rather than a
 * rendered <Navigate>: a navigation that starts while the first load is still running (a link
 * followed, or an address typed, before the session answered) supersedes a loader's redirect, but
 * a <Navigate> rendered for the first address afterwards took the merchant back to the campaigns.
 */
const home = () => redirect('/campaigns');

export function adminRoutes(): RouteObject[] {
  return [
    {
      id: ROOT_ROUTE,
      path: '/',
      loader: loadSession,
      element: <Layout />,
      errorElement: <ServiceDown />,
      HydrateFallback: LoadingSession,
      children: [
        { index: true, loader: home },
        { path: 'campaigns', loader: loadCampaigns, element: <CampaignsPage /> },
        { path: 'campaigns/:id/*', element: <CampaignEditorRoute /> },
        { path: 'ladder/:id', element: <LadderRoute /> },
        { path: 'simulator', loader: loadSimulator, element: <SimulatorPage /> },
        { path: 'widgets', element: <WidgetsPage /> },
        { path: 'analytics', element: <AnalyticsPage /> },
        { path: 'experiments', element: <ExperimentsPage /> },
        { path: 'repairs', loader: loadRepairs, element: <RepairsPage /> },
        { path: 'settings', children: SETTINGS_ROUTES },
        // An address that names no screen (an old or mistyped bookmark) opens the campaigns.
        { path: '*', loader: home },
      ],
    },
  ];
}
