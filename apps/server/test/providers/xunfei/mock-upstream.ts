import { startVendorMock, type VendorMock, type VendorMockOptions } from '../openai-vendor/mock-upstream.js';

/**
 * iFlytek Spark's HTTP API: `/v1/chat/completions` (lite, generalv3, generalv3.5, 4.0Ultra…) and
 * `/v2/chat/completions` (x1 only). The bearer is the APIPassword, or `APIKey:APISecret`. Spark
 * ends every stream with usage. Errors are `{"error": {"message", "type": "api_error"}}`.
 */
export const SPARK = {
  appId: 'app0001',
  apiKey: 'spark-key-5c2d',
  apiSecret: 'spark-secret-8e1f',
  password: 'spark-pw-77aa',
};
const V1_MODELS = new Set(['lite', 'generalv3', 'pro-128k', 'generalv3.5', 'max-32k', '4.0Ultra']);

/** Where and how the vendor answers, for its mock here and the contract suite's (test/contract). */
export const SPARK_API: VendorMockOptions = {
  chatPaths: ['/v1/chat/completions', '/v2/chat/completions'],
  errorBody: (_status, message) => ({ error: { message, type: 'api_error', param: null, code: null } }),
  alwaysStreamUsage: true,
  authorize({ headers, path, body }) {
    const good = [`Bearer ${SPARK.apiKey}:${SPARK.apiSecret}`, `Bearer ${SPARK.password}`];
    if (!good.includes(headers.authorization ?? '')) return 'invalid user';
    // Each API version serves its own models.
    const served = path.startsWith('/v2/') ? body.model === 'x1' : V1_MODELS.has(String(body.model));
    return served ? undefined : `model ${String(body.model)} is not served at ${path}`;
  },
};

export const startSparkMock = (): Promise<VendorMock> => startVendorMock(SPARK_API);
