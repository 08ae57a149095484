/**
 * The merchant admin's router: react-router's hash router over the routes of app/src/routes.tsx.
 * The admin is one page at /app/ (embedded in the platform's admin iframe too), and every
 * screen's address is a fragment such as /app/#/settings/api-keys, so bookmarks keep working.
 */
import { useState } from 'react';
import { RouterProvider, createHashRouter } from 'react-router';
import { adminRoutes } from './routes.tsx';

export function App() {
  // Made once, signed in or not: the root loader reads the session before any screen shows.
  const [router] = useState(() => createHashRouter(adminRoutes()));
  return <RouterProvider router={router} />;
}
