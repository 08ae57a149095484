/**
 * The shop every HTTP bench measures: a Scale shop made through the admin API, an API key,
 * and campaigns of `rulesPerCampaign` rules each, imported enabled (live at once).
 */
import type { FastifyInstance } from 'fastify';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

/**
 * Creates the shop and returns its API key; throws with the answer on any refusal.
 *
 * @example
 *   const { key } = await seedBenchShop(app, { name: 'rules', rules: 100, rulesPerCampaign: 10, rule: benchRule });
 */
export async function seedBenchShop(
  app: FastifyInstance,
  options: { name: string; rules: number; rulesPerCampaign: number; rule: (campaign: number, rule: number) => unknown },
): Promise<{ shopId: string; key: string }> {
  const admin = (url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
  const created = await admin('/admin/v1/shops', { domain: `bench-${options.name}-${process.pid}-${Date.now()}.example.com`, plan: 'scale' });
  if (created.statusCode !== 201) throw new Error(`shop: ${created.body}`);
  const shopId = (created.json() as { shop: { id: string } }).shop.id;
  const keyRes = await admin(`/admin/v1/shops/${shopId}/api-keys`, { name: 'bench' });
  if (keyRes.statusCode !== 201) throw new Error(`key: ${keyRes.body}`);
  const campaigns = Array.from({ length: options.rules / options.rulesPerCampaign }, (_, c) => ({
    name: `Bench campaign ${c}`,
    enabled: true,
    isDraft: false,
    startAt: null,
    endAt: null,
    rules: Array.from({ length: options.rulesPerCampaign }, (__, r) => options.rule(c, r)),
  }));
  const imported = await admin(`/admin/v1/shops/${shopId}/campaigns/import`, { campaigns });
  if (imported.statusCode !== 200) throw new Error(`import: ${imported.body}`);
  return { shopId, key: (keyRes.json() as { key: string }).key };
}
