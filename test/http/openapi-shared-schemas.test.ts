/**
 * Building the OpenAPI document must not change the engine's exported JSON Schemas: Zod hands
 * the result of a schema's `toJSONSchema` hook to `override` callbacks, which rewrite it in
 * place, so a hook returning a shared constant would let the first document empty it for every
 * later reader in the process (the storefront's docs, a second app, another test file).
 */
import { conditionNodeJsonSchema } from '@gcrs/engine/json-schema';
import { expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.ts';

it('leaves conditionNodeJsonSchema whole after an app builds its document', async () => {
  const pristine = structuredClone(conditionNodeJsonSchema);
  const t = await createTestApp();
  try {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
  } finally {
    await t.close();
  }
  expect(conditionNodeJsonSchema).toEqual(pristine);
  expect(Object.keys(conditionNodeJsonSchema.$defs as object).length).toBeGreaterThan(0);
});
