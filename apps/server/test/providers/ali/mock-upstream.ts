import { startVendorMock, type VendorMock, type VendorMockOptions } from '../openai-vendor/mock-upstream.js';

/**
 * Alibaba DashScope's OpenAI-compatible mode (`/compatible-mode/v1/chat/completions` and
 * `/compatible-mode/v1/embeddings`), with the bearer API key; a wrong key is DashScope's 401
 * `invalid_api_key` error.
 */
export const DASHSCOPE_KEY = 'sk-dashscope-4b7e1f0a';

/** Where and how the vendor answers, for its mock here and the contract suite's (test/contract). */
export const DASHSCOPE_API: VendorMockOptions = {
  chatPaths: ['/compatible-mode/v1/chat/completions'],
  embeddingsPath: '/compatible-mode/v1/embeddings',
  errorBody: (status, message) => ({
    error: {
      message,
      type: 'invalid_request_error',
      param: null,
      code: status === 401 ? 'invalid_api_key' : 'invalid_parameter_error',
    },
  }),
  authorize: ({ headers }) =>
    headers.authorization === `Bearer ${DASHSCOPE_KEY}` ? undefined : 'Incorrect API key provided.',
};

export const startDashScopeMock = (): Promise<VendorMock> => startVendorMock(DASHSCOPE_API);
