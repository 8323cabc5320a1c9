import { z } from 'zod';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as the document carries it. */
export type JsonSchema = Record<string, unknown>;

export interface ParameterObject {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

/**
 * The schema of what a client SENDS (`io: 'input'`): a transform or a default describes its input,
 * and what JSON Schema cannot say (a refinement, a preprocess) becomes `{}` instead of failing the
 * whole document.
 */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const converted = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}

/** Whether a schema accepts nothing at all: then the body or parameter is optional. */
export function acceptsNothing(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** Fastify's path (`:id`, `:id(^\d+$)`, `*`) as an OpenAPI path template (`{id}`). */
export function openApiPath(fastifyPath: string, wildcardName = 'path'): string {
  return fastifyPath
    .replace(/:(\w+)(\([^)]*\))?/g, (_match, name: string) => `{${name}}`)
    .replace(/\*$/, `{${wildcardName}}`);
}

/** The names of an OpenAPI path template's parameters, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

/** One parameter per property of an object schema; its `required` list says which must be sent. */
export function parametersOf(schema: z.ZodType | undefined, where: 'query' | 'path'): ParameterObject[] {
  if (!schema) return [];
  const json = toJsonSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    const parameter: ParameterObject = {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      schema: rest,
    };
    if (typeof description === 'string') parameter.description = description;
    return parameter;
  });
}

/**
 * Path parameters: those the route's schema declares, then a plain string for any other name in
 * the template (a handler that reads `request.params` itself), so every template name is described.
 */
export function pathParameters(path: string, schema: z.ZodType | undefined): ParameterObject[] {
  const declared = parametersOf(schema, 'path');
  const names = new Set(declared.map((parameter) => parameter.name));
  const undeclared = pathParameterNames(path)
    .filter((name) => !names.has(name))
    .map((name): ParameterObject => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return [...declared, ...undeclared];
}
