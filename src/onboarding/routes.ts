/**
 * The getting-started checklist (state.ts) on the admin API and the merchant admin's mount:
 * read it, and dismiss it.
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { defineAdminRoute } from '../http/shop-routes.ts';
import type { MountableRoute } from '../http/shop-routes.ts';
import { dismissOnboarding, onboardingSchema, onboardingState } from './state.ts';

const answerSchema = z.object({ onboarding: onboardingSchema });

export function onboardingAdminRoutes(ctx: AppContext): MountableRoute[] {
  const read = (shop: { id: string; domain: string }) => onboardingState(ctx.db, shop, ctx.config.platformAppKey).then((onboarding) => ({ onboarding }));
  return [
    defineAdminRoute({
      scope: 'shop',
      method: 'GET',
      path: '/onboarding',
      operationId: 'getOnboarding',
      summary: 'The getting-started checklist',
      description: 'Connect, switch the app embed on, enable a campaign, see a first gift: each step as the service has seen it.',
      tag: 'Onboarding',
      responses: { 200: { description: 'The checklist', schema: answerSchema } },
      handler: async ({ shop }) => read(shop),
    }),
    defineAdminRoute({
      scope: 'shop',
      method: 'POST',
      path: '/onboarding/dismiss',
      operationId: 'dismissOnboarding',
      summary: 'Hide the getting-started checklist',
      description: 'Idempotent: the first dismissal is kept.',
      tag: 'Onboarding',
      responses: { 200: { description: 'The checklist, dismissed', schema: answerSchema } },
      handler: async ({ shop }) => {
        await dismissOnboarding(ctx.db, shop.id, ctx.now());
        return read(shop);
      },
    }),
  ];
}
