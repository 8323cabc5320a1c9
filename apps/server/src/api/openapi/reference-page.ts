import type { OpenApiDocument } from './document.js';
import type { JsonSchema, ParameterObject } from './schemas.js';

/** docs/api-reference.md, rendered from the OpenAPI document (`npm run docs:api` writes it; a test compares). */
export function renderReferencePage(document: OpenApiDocument): string {
  const lines = [
    '# Management API reference',
    '',
    '<!-- Generated from the OpenAPI document by `npm run docs:api`; do not edit by hand. -->',
    '',
    'Every operation of `/api`, as `GET /api/openapi.json` describes it (OpenAPI 3.1). Each JSON answer is',
    'the `{success, message, data}` envelope with the real HTTP status; see [api.md](api.md) for the conventions.',
    '',
  ];
  lines.push(
    document.tags.map((tag) => `[${tag.name}](#${tag.name.toLowerCase().replace(/ /g, '-')})`).join(' · '),
    '',
  );
  for (const tag of document.tags) {
    lines.push(`## ${tag.name}`, '', tag.description, '');
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if ((operation.tags as string[])[0] === tag.name) lines.push(...operationSection(method, path, operation));
      }
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function operationSection(method: string, path: string, operation: JsonSchema): string[] {
  const lines = [`### \`${method.toUpperCase()} ${path}\``, '', `${String(operation.summary)}.`, ''];
  lines.push(String(operation.description ?? '').replace(/\n\n/g, ' '), '');
  lines.push(...answerLines(operation.responses as Record<string, JsonSchema>));
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  if (parameters.length > 0) {
    lines.push('| Parameter | In | Type | Required |', '| --- | --- | --- | --- |');
    for (const parameter of parameters) {
      lines.push(
        `| \`${parameter.name}\` | ${parameter.in} | ${typeOf(parameter.schema)} | ${parameter.required ? 'yes' : 'no'} |`,
      );
    }
    lines.push('');
  }
  const body = bodySchema(operation);
  if (body) lines.push(...bodyTable(body));
  return lines;
}

/** What a success answers when it is not the envelope, and which refusals the operation may give. */
function answerLines(responses: Record<string, JsonSchema>): string[] {
  const success = responses['200'] as { description: string; content: Record<string, unknown> };
  const contentTypes = Object.keys(success.content).map((type) => `\`${type}\``);
  const refusals = Object.keys(responses).filter((status) => status !== '200');
  const lines = [`Refusals: ${refusals.join(', ')} (the \`{success: false, message}\` envelope).`, ''];
  if (success.description.startsWith('Done:')) return lines;
  return [`Answers ${contentTypes.join(' or ')}: ${success.description}`, '', ...lines];
}

function bodySchema(operation: JsonSchema): JsonSchema | undefined {
  const requestBody = operation.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined;
  return requestBody?.content['application/json']?.schema;
}

/** The body's fields; a union (`anyOf`) lists each variant's fields in turn. */
function bodyTable(schema: JsonSchema): string[] {
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
  const lines: string[] = [];
  variants.forEach((variant, index) => {
    const properties = variant.properties as Record<string, JsonSchema> | undefined;
    const heading = variants.length > 1 ? `Body, variant ${index + 1} of ${variants.length}:` : 'Body:';
    if (!properties) {
      lines.push(`${heading} ${typeOf(variant)}`, '');
      return;
    }
    const required = new Set((variant.required as string[] | undefined) ?? []);
    lines.push(heading, '', '| Field | Type | Required |', '| --- | --- | --- |');
    for (const [name, property] of Object.entries(properties)) {
      lines.push(`| \`${name}\` | ${typeOf(property)} | ${required.has(name) ? 'yes' : 'no'} |`);
    }
    lines.push('');
  });
  return lines;
}

/** A short, readable type for a table cell: `integer`, `one of "a", "b"`, `array of string`, `any`. */
function typeOf(schema: JsonSchema): string {
  return readableType(schema).replace(/\|/g, '\\|');
}

function readableType(schema: JsonSchema): string {
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(', ')}`;
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(choices)) return [...new Set(choices.map(readableType))].join(' or ');
  if (schema.type === 'array') return `array of ${readableType((schema.items ?? {}) as JsonSchema)}`;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (typeof schema.type === 'string') return schema.type;
  return 'any';
}
