import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { sendJson } from '../../mocks/mock-server.js';
import {
  startVendorMock,
  type VendorMock,
  type VendorMockOptions,
  type VendorRequest,
} from '../openai-vendor/mock-upstream.js';

/**
 * Zhipu BigModel v4 (`/api/paas/v4/chat/completions`, `/api/paas/v4/embeddings`, CogView's
 * `/api/paas/v4/images/generations`), checking token
 * authentication as Zhipu documents it: the bearer is an HS256 JWT with the header
 * `sign_type: SIGN`, signed with the API key's secret, whose `api_key` is the key's id and whose
 * `timestamp` and `exp` are milliseconds. Errors are Zhipu's `{"error": {"code", "message"}}`.
 */
export const ZHIPU_KEY = { id: 'a1b2c3d4e5f6', secret: 'zhipu-secret-9f8e7d6c' };

/** Where and how the vendor answers, for its mock here and the contract suite's (test/contract). */
export const ZHIPU_API: VendorMockOptions = {
  chatPaths: ['/api/paas/v4/chat/completions'],
  embeddingsPath: '/api/paas/v4/embeddings',
  errorBody: zhipuError,
  alwaysStreamUsage: true,
  route: (request, response) => (request.path === IMAGES_PATH ? cogView(request, response) : false),
  authorize: authorizeZhipu,
};

export const startZhipuMock = (): Promise<VendorMock> => startVendorMock(ZHIPU_API);

/** Where CogView makes images, as OpenAI's images API with Zhipu's own answer. */
export const IMAGES_PATH = '/api/paas/v4/images/generations';

/** The address the mock gives the image CogView made for `prompt` with `model`. */
export const cogViewUrl = (model: string, prompt: string): string =>
  `https://aigc-files.bigmodel.cn/api/cogview/${model}-${createHash('sha256').update(prompt).digest('hex').slice(0, 16)}.png`;

/**
 * CogView's image generation: `model` and a non-empty `prompt` (optional `size`, `quality`,
 * `user_id`), one image a call, answered as `{created, data: [{url}], content_filter}`.
 */
async function cogView(request: VendorRequest, response: ServerResponse): Promise<true> {
  const refused = await authorizeZhipu(request);
  if (refused) {
    sendJson(response, 401, zhipuError(401, refused));
    return true;
  }
  const { model, prompt } = request.body;
  if (typeof model !== 'string' || typeof prompt !== 'string' || !prompt) {
    sendJson(response, 400, zhipuError(400, 'prompt 参数非法。请检查文档。'));
    return true;
  }
  sendJson(response, 200, {
    created: 1_760_000_000,
    data: [{ url: cogViewUrl(model, prompt) }],
    content_filter: [{ role: 'assistant', level: 3 }],
  });
  return true;
}

function zhipuError(status: number, message: string) {
  return { error: { code: status === 401 ? '1002' : '1214', message } };
}

async function authorizeZhipu({ headers }: VendorRequest): Promise<string | undefined> {
  const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
  if (!token) return 'Authorization Token missing';
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'HS256' || header.sign_type !== 'SIGN') return 'token header is not HS256 with sign_type SIGN';
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
}
