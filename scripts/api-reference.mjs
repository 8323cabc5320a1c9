// Writes docs/api-reference.md from the OpenAPI document: `npm run docs:api` (it runs under tsx).
// apps/server/src/api/openapi/openapi.test.ts fails while the committed page differs from this output.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../apps/server/src/api/openapi/document.ts';
import { renderReferencePage } from '../apps/server/src/api/openapi/reference-page.ts';

const target = fileURLToPath(new URL('../docs/api-reference.md', import.meta.url));
writeFileSync(target, renderReferencePage(buildOpenApiDocument('reference')));
console.log(`wrote ${target}`);
