/**
 * What a page lists, loaded from the API: the value (undefined while loading), the error text
 * when the last load failed (the page shows it with "Try again"), and `reload` (after a change,
 * or from that button). One copy of the load/error/retry state every list page had.
 */
import { useCallback, useEffect, useState } from 'react';
import { errorText } from './api/client.ts';

/** One openapi-fetch answer, or several combined by the caller: `data` on success. */
type Answer<T> = { data?: T | undefined; error?: unknown };

/**
 * @example
 *   const keys = useLoaded(async () => api.GET('/app/api/v1/api-keys'), 'The keys could not be loaded');
 *   keys.value?.apiKeys; keys.error; await keys.reload();
 */
export function useLoaded<T>(fetch: () => Promise<Answer<T>>, failure: string): { value: T | undefined; error: string | undefined; reload: () => Promise<void> } {
  const [value, setValue] = useState<T | undefined>();
  const [error, setError] = useState<string | undefined>();
  // The page passes a new closure each render; the first one fixes what is loaded.
  const [load] = useState(() => fetch);
  const reload = useCallback(async () => {
    const answer = await load();
    if (answer.data !== undefined) {
      setValue(answer.data);
      setError(undefined);
    } else setError(errorText(answer.error, failure));
  }, [load, failure]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { value, error, reload };
}
