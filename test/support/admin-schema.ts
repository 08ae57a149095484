/**
 * The Admin API schema of the pinned version (dev/platform/schema/, introspection JSON from the
 * platform's own package: docs/install.md "Where the schema comes from") and the checks the tests
 * hold the service's documents and the stand-in's answers to.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { NoDeprecatedCustomRule, buildClientSchema, execute, parse, validate } from 'graphql';
import type { GraphQLSchema, IntrospectionQuery } from 'graphql';
import { ADMIN_API_VERSION } from '../../src/platform/admin-client.ts';
import type { RecordedRequest } from '../../dev/platform/standin.ts';

let schema: GraphQLSchema | undefined;

/** The schema, built once per process. */
export function adminSchema(): GraphQLSchema {
  if (!schema) {
    const file = new URL(`../../dev/platform/schema/admin_${ADMIN_API_VERSION}.json.gz`, import.meta.url);
    const json = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { data: IntrospectionQuery };
    schema = buildClientSchema(json.data);
  }
  return schema;
}

/** The schema's complaints about a document (empty when it is valid). */
export const documentErrors = (document: string): string[] => validate(adminSchema(), parse(document)).map((e) => e.message);

/**
 * The deprecated fields, arguments and enum values a document uses (empty when none): the
 * platform removes them in a later version, so the service selects none.
 */
export const deprecatedUses = (document: string): string[] => validate(adminSchema(), parse(document), [NoDeprecatedCustomRule]).map((e) => e.message);

/**
 * The ways a stand-in answer differs from what the schema's executor makes of it for the same
 * document and variables: a field not selected, one missing, a null where the schema allows
 * none, an enum value or scalar the schema does not have. Empty when the answer is faithful.
 */
export function answerErrors(request: RecordedRequest): string[] {
  const body = request.answer?.body as { data?: Record<string, unknown> } | undefined;
  if (request.answer?.status !== 200 || body?.data === undefined) return [];
  const result = execute({
    schema: adminSchema(),
    document: parse(request.query),
    variableValues: request.variables,
    rootValue: body.data,
    // Read each field under its response key: the answer is what the stand-in sent.
    fieldResolver: (source: unknown, _args, _context, info) => (source as Record<string, unknown> | null)?.[info.path.key],
    typeResolver: (value: unknown) => (value as { __typename?: string }).__typename,
  }) as { data?: unknown; errors?: ReadonlyArray<{ message: string }> };
  const errors = (result.errors ?? []).map((e) => e.message);
  if (JSON.stringify(result.data) !== JSON.stringify(body.data)) errors.push(`answer differs from its schema execution: ${JSON.stringify(body.data).slice(0, 300)}`);
  return errors;
}
