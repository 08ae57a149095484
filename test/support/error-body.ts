/**
 * The exact error body SPEC "Errors" and `handleError` promise: `error`, the stable `code`,
 * the `requestId` (a `req_` id; test/http/conventions.test.ts checks it equals X-Request-Id),
 * and any extra fields of that error.
 */
import { expect } from 'vitest';
import type { ErrorCode } from '../../src/http/errors.ts';

/** @example expect(res.json()).toEqual(errorBody('Campaign not found', 'not_found')); */
export function errorBody(error: string, code: ErrorCode, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { error, code, requestId: expect.stringMatching(/^req_/), ...extra };
}
