import { verify } from 'node:crypto';
import { providerType } from '../../src/domain/channel-types/registry.js';
import { serviceAccountKey, testKeyPair } from '../providers/vertex/test-support.js';
import { anthropicMessage, anthropicSse, readAnthropicBody } from './anthropic.js';
import { geminiAnswer, geminiChunks, googleError, readGeminiBody } from './gemini.js';
import {
  type ErrorKind,
  isRecord,
  type Json,
  json,
  type ProviderEntry,
  type Reply,
  type Responder,
} from './scenario-mock.js';

/**
 * Google Vertex AI (channel type `vertexai`): Google's OAuth token endpoint and Vertex's
 * `POST /v1/projects/{project}/locations/{region}/publishers/{google|anthropic}/models/{model}:{method}`.
 * The token endpoint takes the jwt-bearer grant, checks the RS256 signature with the service
 * account's public key, the issuer, audience and scope, and issues bearer tokens that model calls
 * must carry. Gemini models (`generateContent`, `streamGenerateContent?alt=sse`) answer as the
 * Gemini API does; Claude models (`rawPredict`, `streamRawPredict`) take Anthropic's body without
 * `model`, with `anthropic_version: vertex-2023-10-16` and a `stream` that agrees with the method,
 * and answer as Anthropic does. The platform's own errors (credentials, quota) are Google's
 * `{"error": {"code", "message", "status"}}` for both publishers.
 */

const PROJECT = 'contract-vertex-project';
const REGION = 'us-east5';
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const decode = (part: string): Json => {
  const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return isRecord(value) ? value : {};
};

function vertexError(kind: ErrorKind, model = ''): Reply {
  if (kind === 'auth') {
    return googleError(
      401,
      'UNAUTHENTICATED',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    );
  }
  if (kind === 'rate') {
    return googleError(
      429,
      'RESOURCE_EXHAUSTED',
      `Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model with base model: ${model}. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.`,
    );
  }
  return googleError(500, 'INTERNAL', 'Internal error encountered.');
}

const MODEL_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/;

function vertexResponder(publicKey: string, clientEmail: string): Responder {
  const issued = new Set<string>();
  return {
    side(request) {
      if (request.path !== '/token') return undefined;
      const form = new URLSearchParams(request.raw.toString('utf8'));
      const [head = '', claims = '', signature = ''] = (form.get('assertion') ?? '').split('.');
      const refuse = (description: string) => json(400, { error: 'invalid_grant', error_description: description });
      if (form.get('grant_type') !== GRANT)
        return json(400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
      const signed = verify(
        'RSA-SHA256',
        Buffer.from(`${head}.${claims}`),
        publicKey,
        Buffer.from(signature, 'base64url'),
      );
      if (!signed || decode(head).alg !== 'RS256') return refuse('Invalid JWT Signature.');
      const payload = decode(claims);
      const host = request.headers.host ?? '';
      if (payload.iss !== clientEmail) return refuse('Invalid grant: account not found');
      if (payload.aud !== `http://${host}/token`) return refuse('Invalid JWT: aud is not the token endpoint');
      if (payload.scope !== SCOPE) return refuse('Invalid OAuth scope or ID token audience provided.');
      const token = `ya29.contract-${issued.size + 1}`;
      issued.add(token);
      return json(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    },
    read(request) {
      const target = MODEL_PATH.exec(request.path);
      if (!target || request.method !== 'POST') {
        return googleError(404, 'NOT_FOUND', `The requested URL ${request.path} was not found on this server.`);
      }
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer || !issued.has(bearer)) return vertexError('auth');
      const [, project, region, publisher, rawModel = '', method] = target;
      const model = decodeURIComponent(rawModel);
      if (project !== PROJECT || region !== REGION) {
        return googleError(
          404,
          'NOT_FOUND',
          `Publisher Model \`projects/${project}/locations/${region}/publishers/${publisher}/models/${model}\` was not found or your project does not have access to it.`,
        );
      }
      if (publisher === 'google') {
        const stream = method === 'streamGenerateContent';
        if ((!stream && method !== 'generateContent') || (stream && request.query.get('alt') !== 'sse')) {
          return googleError(400, 'INVALID_ARGUMENT', `Invalid method ${method}${stream ? ' without alt=sse' : ''}`);
        }
        return readGeminiBody(request.body, model, stream, 'google');
      }
      const stream = method === 'streamRawPredict';
      if (!stream && method !== 'rawPredict') return googleError(400, 'INVALID_ARGUMENT', `Invalid method ${method}`);
      const body = request.body;
      const invalid = (message: string) =>
        json(400, { type: 'error', error: { type: 'invalid_request_error', message } });
      if (!body) return invalid('body: expected a JSON object');
      if ('model' in body) return invalid('model: Extra inputs are not permitted');
      if (body.anthropic_version !== 'vertex-2023-10-16')
        return invalid('anthropic_version: vertex-2023-10-16 is required');
      if ((body.stream === true) !== stream) return invalid('stream: must agree with the method');
      return readAnthropicBody(body, 'anthropic', model, stream);
    },
    whole: (answer, call) =>
      call.api === 'anthropic'
        ? anthropicMessage(answer)
        : geminiAnswer(answer, { createTime: '2025-06-20T10:00:00.000000Z' }),
    stream: (answer, call) => (call.api === 'anthropic' ? anthropicSse(answer) : geminiChunks(answer)),
    error: (kind, call) => vertexError(kind, call.model),
  };
}

/** A key pair and a service account of its own per describe: tokens are cached per account by the adapter. */
function setup(account: string) {
  const keys = testKeyPair();
  const clientEmail = `${account}@${PROJECT}.iam.gserviceaccount.com`;
  return {
    responder: vertexResponder(keys.publicKey, clientEmail),
    channel: (url: string) => ({
      key: serviceAccountKey(keys.privateKey, {
        token_uri: `${url}/token`,
        client_email: clientEmail,
        project_id: PROJECT,
      }),
      base_url: url,
      other: `${REGION}|${PROJECT}`,
    }),
  };
}

export const vertexGeminiProvider: ProviderEntry = {
  name: 'Vertex AI, Gemini',
  type: providerType('vertexai'),
  model: 'gemini-2.5-flash',
  setup: () => setup('contract-gemini'),
  authStatus: 502,
  usage: {
    cacheWrite: 'Vertex reports Gemini usage as the Gemini API does: cached content read, no cache writes',
    reasoning: true,
    audio: true,
  },
};

export const vertexClaudeProvider: ProviderEntry = {
  name: 'Vertex AI, Claude',
  type: providerType('vertexai'),
  model: 'claude-sonnet-4-6',
  setup: () => setup('contract-claude'),
  authStatus: 502,
  cacheReadKind: 'cached_read_tokens',
  usage: {
    cacheWrite: true,
    reasoning: "Claude on Vertex reports Anthropic's usage, which has no thinking count (inside output_tokens)",
    audio: 'Claude takes no audio and produces none: its usage has no audio counts',
  },
};
