// The "./json-schema" subpath of @gcrs/engine: the recursive JSON Schema of a condition
// tree, for documentation (OpenAPI). Separate from "." because building that schema runs
// z.toJSONSchema over every leaf when the module loads, work (and code) a storefront or a
// checkout function evaluating rules has no use for. Loading it also
// teaches z.toJSONSchema to describe conditionNodeSchema (see the module below).
export {
  buildConditionNodeJsonSchema,
  conditionNodeJsonSchema,
  leafDefinitionName,
} from './schema/condition-node-json-schema.ts';
