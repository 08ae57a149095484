/**
 * A webhook endpoint URL that can be delivered to (issue 9 item 6): refused at creation when
 * the dispatcher's fetch would refuse it on every attempt, instead of a delivery log of
 * failures the merchant cannot explain.
 *
 * - http or https only, and text the store can keep (no NUL, no lone surrogate);
 * - no credentials (`https://user:pass@host/`): fetch throws on a URL with userinfo, and a
 *   secret in the URL would be shown in every endpoint listing;
 * - no port that fetch blocks: the "bad ports" of the Fetch Standard ("port blocking"), which
 *   Node's fetch enforces, plus port 0, which nothing listens on;
 * - (webhookDestinationSchema) no host the destination policy refuses (issue 20 item 2): a local
 *   address in any of its forms, or a local name, unless the operator's allow-list names it.
 */
import { STORABLE_TEXT_PATTERN, TEXT_ISSUE } from '@gcrs/engine';
import { z } from 'zod';
import { checkHost } from './destination-policy.ts';
import type { DestinationAllowList } from './destination-policy.ts';

/** Fetch Standard §2.9 "bad port" list (as Node 24's fetch applies it). */
export const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109,
  110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530,
  531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190,
  5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * The `url` of a webhook endpoint.
 *
 * @example
 *   webhookUrlSchema.safeParse('https://user:pw@example.com/hook').success; // false
 *   webhookUrlSchema.safeParse('https://example.com:25/hook').success;      // false
 */
export const webhookUrlSchema = z
  .url({ protocol: /^https?$/, error: 'Expected an http:// or https:// URL' })
  .max(2048)
  // z.url takes NUL and lone surrogates, which PostgreSQL cannot store.
  .regex(STORABLE_TEXT_PATTERN, TEXT_ISSUE)
  .superRefine((text, ctx) => {
    // Zod runs refinements after a failed format check too: nothing more to say then.
    if (!URL.canParse(text)) return;
    const url = new URL(text);
    if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'A webhook URL must not contain credentials (user:password@)' });
    }
    if (url.port !== '' && (url.port === '0' || BAD_PORTS.has(Number(url.port)))) {
      ctx.addIssue({ code: 'custom', message: `Port ${url.port} is blocked for HTTP requests; use another port` });
    }
  });

/**
 * The `url` of a new webhook endpoint: a deliverable URL whose host the destination policy lets
 * through. Names are judged again at every connection, on the addresses they resolve to then.
 *
 * @example
 *   webhookDestinationSchema(EMPTY_ALLOW_LIST).safeParse('http://0x7f000001/hook').success; // false: 127.0.0.1
 */
export function webhookDestinationSchema(allowList: DestinationAllowList) {
  return webhookUrlSchema.superRefine((text, ctx) => {
    if (!URL.canParse(text)) return;
    const verdict = checkHost(new URL(text).hostname, allowList);
    if (!verdict.allowed) ctx.addIssue({ code: 'custom', message: `${verdict.reason} (the operator may allow it: WEBHOOK_ALLOWED_HOSTS)` });
  });
}
