/**
 * What a page lists, loaded by its route's loader (app/src/routes.tsx) before the page shows:
 * the value, the error text when the load failed (the page shows it with "Try again"), and
 * `reload` (runs the loaders of the screen again, e.g. from that button). A loader is the
 * page's exported `load…` function: one openapi-fetch call, or several combined into one answer.
 */
import { useLoaderData, useRevalidator } from 'react-router';
import { errorText } from './api/client.ts';

/** One openapi-fetch answer, or several combined by the loader: `data` on success. */
export type Answer<T> = { data?: T | undefined; error?: unknown };

type DataOf<L> = L extends () => Promise<Answer<infer T>> ? T : never;

/**
 * @example
 *   export const loadApiKeys = () => api.GET('/app/api/v1/api-keys');
 *   const keys = useLoaded<typeof loadApiKeys>('The keys could not be loaded');
 *   keys.value?.apiKeys; keys.error; await keys.reload();
 */
export function useLoaded<L extends () => Promise<Answer<unknown>>>(failure: string): { value: DataOf<L> | undefined; error: string | undefined; reload: () => Promise<void> } {
  const answer = useLoaderData<Answer<DataOf<L>>>();
  const revalidator = useRevalidator();
  return {
    value: answer.data,
    error: answer.data === undefined ? errorText(answer.error, failure) : undefined,
    reload: () => revalidator.revalidate(),
  };
}
