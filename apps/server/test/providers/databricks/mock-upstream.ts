import { startVendorMock, type VendorMock, type VendorMockOptions } from '../openai-vendor/mock-upstream.js';

/**
 * Databricks Model Serving's OpenAI-compatible API: `/serving-endpoints/chat/completions` and
 * `/serving-endpoints/embeddings`, the serving endpoint named in `model`, a personal access token
 * as the bearer. Errors are Databricks' `{"error_code", "message"}`.
 */
export const DATABRICKS_TOKEN = 'dapi0123456789abcdef';

/** Where and how the vendor answers, for its mock here and the contract suite's (test/contract). */
export const DATABRICKS_API: VendorMockOptions = {
  chatPaths: ['/serving-endpoints/chat/completions'],
  embeddingsPath: '/serving-endpoints/embeddings',
  errorBody: (status, message) => ({
    error_code: status === 401 ? 'UNAUTHENTICATED' : 'INVALID_PARAMETER_VALUE',
    message,
  }),
  authorize: ({ headers }) =>
    headers.authorization === `Bearer ${DATABRICKS_TOKEN}`
      ? undefined
      : 'Credential was not sent or was of an unsupported type for this API.',
};

export const startDatabricksMock = (): Promise<VendorMock> => startVendorMock(DATABRICKS_API);
