import { expect } from 'vitest';
import { DATABRICKS_TOKEN, startDatabricksMock } from '../../../../test/providers/databricks/mock-upstream.js';
import { describeVendorRelay } from '../../../../test/providers/openai-vendor/suite.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/** Azure Databricks end to end: OpenAI's API under /serving-endpoints, the PAT as the bearer. */
describeVendorRelay('Azure Databricks channels through the relay', {
  type: providerType('azure-databricks'),
  startMock: startDatabricksMock,
  channel: { key: DATABRICKS_TOKEN },
  wrongKey: 'dapi-not-the-token',
  chatModel: 'databricks-meta-llama-3-3-70b-instruct',
  chatPath: '/serving-endpoints/chat/completions',
  embeddings: { model: 'databricks-gte-large-en', path: '/serving-endpoints/embeddings' },
  checkAuth(request) {
    expect(request.headers.authorization).toBe(`Bearer ${DATABRICKS_TOKEN}`);
  },
  wrongKeyMessage: 'Credential was not sent',
  badRequest: { error_code: 'BAD_REQUEST', message: 'Invalid parameter: temperature must be <= 2' },
  badRequestMessage: 'temperature must be <= 2',
});
