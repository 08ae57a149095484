/**
 * The signed-in session, loaded once by the root route (app/src/routes.tsx) before any screen:
 * every page reads it here instead of asking the API again.
 */
import { useRouteLoaderData } from 'react-router';
import type { Session } from './api/client.ts';

/** The root route's id: its loader is `loadSession`. */
export const ROOT_ROUTE = 'root';

/** The session, or undefined when signed out (the layout then shows the sign-in page, not a screen). */
export function useSession(): Session | undefined {
  return useRouteLoaderData<Session | undefined>(ROOT_ROUTE);
}

/** The session of a screen, which only renders signed in. */
export function useSignedIn(): Session {
  const session = useSession();
  if (!session) throw new Error('A screen rendered without a session');
  return session;
}
