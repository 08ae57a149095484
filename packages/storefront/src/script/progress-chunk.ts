/**
 * gifts-progress.js, the progress bar's chunk (widgets-api.ts): fetched by the first pass of a
 * page whose shop has the bar on (and whose cart is in the thresholds' currency), registered on
 * `window.svcGiftsProgress`. A shop without the bar never loads it.
 */
import { renderProgressBar } from '../widgets/progress-bar.ts';
import type { ProgressChunk } from './widgets-api.ts';

const chunk: ProgressChunk = { render: renderProgressBar };
window.svcGiftsProgress ??= chunk;
