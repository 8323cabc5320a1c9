import { UserStatus } from '@one-hub/contracts';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Auth } from '../http/auth.js';
import { AppError } from '../platform/errors.js';

export function accessTokenOf(request: FastifyRequest): string {
  return (request.params as { accessToken?: string }).accessToken ?? '';
}

/**
 * The access token in the path names the user, as the reference does (`/mcp/<token>`): MCP
 * clients are configured with a URL. Checked from the path alone, before the body is read.
 */
export function authenticateByPath(auth: Pick<Auth, 'accessTokenUser'>): onRequestAsyncHookHandler {
  return async (request) => {
    const token = accessTokenOf(request);
    const user = token ? await auth.accessTokenUser(token) : null;
    if (!user || user.status !== UserStatus.enabled) {
      throw AppError.unauthorized('the access token in the URL is not valid, or its user is disabled');
    }
    request.user = user;
  };
}
