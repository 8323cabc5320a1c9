import type { ResourceOperations } from '../api/openapi/operation.js';

export const metricsOperations: ResourceOperations = {
  tag: 'Metrics',
  description: 'Prometheus metrics, off unless METRICS_USER and METRICS_PASSWORD are set.',
  operations: [
    {
      method: 'get',
      path: '/api/metrics',
      summary: 'Prometheus metrics (text format)',
      description: '404 while metrics are off.',
      access: 'basic',
      answer: { contentTypes: ['text/plain'], description: 'Prometheus text exposition format.' },
    },
  ],
};
