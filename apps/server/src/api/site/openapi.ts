import type { ResourceOperations } from '../openapi/operation.js';

export const siteOperations: ResourceOperations = {
  tag: 'Site',
  description: 'Public facts the console needs before anyone signs in, and this document.',
  operations: [
    { method: 'get', path: '/api/status', summary: 'Site name, version and enabled features', access: 'public' },
    { method: 'get', path: '/api/notice', summary: 'The notice (Markdown)', access: 'public' },
    { method: 'get', path: '/api/about', summary: 'The About page (Markdown, HTML or a URL)', access: 'public' },
    { method: 'get', path: '/api/home_page_content', summary: 'The home page content', access: 'public' },
    {
      method: 'get',
      path: '/api/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      access: 'public',
      answer: { contentTypes: ['application/json'], description: 'The OpenAPI document, not enveloped.' },
    },
  ],
};
