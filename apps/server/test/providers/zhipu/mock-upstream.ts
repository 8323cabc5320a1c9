import { decodeProtectedHeader, jwtVerify } from 'jose';
import { startVendorMock, type VendorMock } from '../openai-vendor/mock-upstream.js';

/**
 * Zhipu BigModel v4 (`/api/paas/v4/chat/completions`, `/api/paas/v4/embeddings`), checking token
 * authentication as Zhipu documents it: the bearer is an HS256 JWT with the header
 * `sign_type: SIGN`, signed with the API key's secret, whose `api_key` is the key's id and whose
 * `timestamp` and `exp` are milliseconds. Errors are Zhipu's `{"error": {"code", "message"}}`.
 */
export const ZHIPU_KEY = { id: 'a1b2c3d4e5f6', secret: 'zhipu-secret-9f8e7d6c' };

export async function startZhipuMock(): Promise<VendorMock> {
  return startVendorMock({
    chatPaths: ['/api/paas/v4/chat/completions'],
    embeddingsPath: '/api/paas/v4/embeddings',
    errorBody: (status, message) => ({ error: { code: status === 401 ? '1002' : '1214', message } }),
    alwaysStreamUsage: true,
    async authorize({ headers }) {
      const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
      if (!token) return 'Authorization Token missing';
      try {
        const header = decodeProtectedHeader(token);
        if (header.alg !== 'HS256' || header.sign_type !== 'SIGN')
          return 'token header is not HS256 with sign_type SIGN';
        const { payload } = await jwtVerify(token, new TextEncoder().encode(ZHIPU_KEY.secret));
        if (payload.api_key !== ZHIPU_KEY.id) return 'api_key of the token is unknown';
        const { timestamp, exp } = payload as { timestamp?: unknown; exp?: unknown };
        // Milliseconds, both: a token made now, not yet expired.
        if (typeof timestamp !== 'number' || Math.abs(timestamp - Date.now()) > 10 * 60_000) return 'bad timestamp';
        if (typeof exp !== 'number' || exp <= Date.now()) return 'token expired';
        return undefined;
      } catch {
        return 'Authorization Token非法，请确认Authorization Token正确传递。';
      }
    },
  });
}
