/**
 * How the outbox dispatcher sends a webhook attempt (its `webhooks` option): signed per Standard
 * Webhooks (deliver.ts), through a fetch that connects only where the destination policy allows
 * (guarded-fetch.ts), within a timeout. Built by the wiring root (workers.ts), so outbox/ knows
 * nothing of signing or destinations.
 */
import type { WebhookSender } from '../outbox/dispatcher.ts';
import { deliverWebhook, WEBHOOK_TIMEOUT_MS } from './deliver.ts';
import { EMPTY_ALLOW_LIST } from './destination-policy.ts';
import type { DestinationAllowList } from './destination-policy.ts';
import { createGuardedFetch } from './guarded-fetch.ts';
import type { FetchLike } from './guarded-fetch.ts';

export type WebhookSenderOptions = {
  /** Hosts and CIDRs webhooks may reach although the destination policy refuses them (config.webhookAllowList). */
  allowList?: DestinationAllowList | undefined;
  /** Injected for tests; otherwise a fetch that connects only where the destination policy allows. */
  fetch?: FetchLike | undefined;
  /** WEBHOOK_TIMEOUT_MS by default; the dispatcher's lease must be longer. */
  timeoutMs?: number | undefined;
};

/**
 * @example
 *   createOutboxDispatcher({ …, webhooks: createWebhookSender({ allowList: config.webhookAllowList }) });
 */
export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  // The guarded agent's idle connections are unref'd, as the global fetch's are: nothing to close at stop().
  const fetchFn: FetchLike = options.fetch ?? createGuardedFetch({ allowList: options.allowList ?? EMPTY_ALLOW_LIST }).fetch;
  return { timeoutMs, send: (attempt, attemptAt) => deliverWebhook(fetchFn, attempt, { attemptAt, timeoutMs }) };
}
