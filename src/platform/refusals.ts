/**
 * How a merchant route answers when the platform cannot be used for the shop (CONTRACT part
 * three "Bad input": never a 5xx): the same words wherever the admin asks the platform
 * (billing, the shop's languages).
 */
import { ApiError, conflict } from '../http/errors.ts';

const BROKEN = 'The shop\'s platform connection is broken';

/**
 * 409: the platform refused the shop's access token (`why` says how).
 *
 * @example throw refusedToken('The platform refused the shop\'s access token (401)');
 */
export const refusedToken = (why: string): ApiError =>
  conflict(BROKEN, { issue: `${why}: open the app from the platform's admin to reinstall it, or set a new access token` });

/**
 * 409: the stored access token cannot be opened with this instance's PLATFORM_APP_SECRET.
 *
 * @example if (credentials.state === 'unreadable') throw unreadableToken();
 */
export const unreadableToken = (): ApiError => conflict(BROKEN, { issue: 'Its access token cannot be opened with this PLATFORM_APP_SECRET: connect again' });

/**
 * 429 with `Retry-After`: the platform is throttling the shop's requests (`why` says so).
 *
 * @example throw platformThrottled('The platform is throttling this shop\'s requests (429)', 2);
 */
export const platformThrottled = (why: string, seconds: number): ApiError =>
  new ApiError('rate_limited', { error: 'Rate limit exceeded', issue: `${why}; try again in ${seconds} s` }, { 'Retry-After': String(seconds) });
