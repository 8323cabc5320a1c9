import { Role, UserStatus } from '@one-hub/contracts';
import type { FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { sha256Hex } from '../platform/crypto.js';
import type { UserRow } from '../platform/db/index.js';
import { AppError } from '../platform/errors.js';
import { SESSION_COOKIE, type SessionCodec } from './session.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the auth guards. */
    user: UserRow | null;
  }
}

export interface UserLookup {
  findById(id: number): Promise<UserRow | undefined>;
  findByAccessTokenHash(hash: string): Promise<UserRow | undefined>;
}

export interface Auth {
  /** The caller, from the session cookie or else the `Authorization` access token; null if anonymous. */
  resolve(request: FastifyRequest): Promise<UserRow | null>;
  /**
   * Route guards, declared as a route's `onRequest` hook: they read only the cookie and the
   * Authorization header, so an anonymous caller is refused before the server reads its body.
   */
  requireUser: onRequestAsyncHookHandler;
  requireAdmin: onRequestAsyncHookHandler;
  requireRoot: onRequestAsyncHookHandler;
  /** The user holding this access token, whatever their status; null when nobody holds it. */
  accessTokenUser(token: string): Promise<UserRow | null>;
  /** The user a current session cookie names (access tokens do not count); null otherwise. */
  sessionUser(request: FastifyRequest): Promise<UserRow | null>;
  /** Loads the caller if there is one, without requiring it. */
  optionalUser: preHandlerAsyncHookHandler;
}

/** onRequest hooks that refuse a caller without a session or access token (bodies.ts reads this). */
const authenticatingHooks = new WeakSet<object>();

/** Marks a route guard that authenticates the caller from the headers before the body is read. */
export function markAuthenticating<T extends object>(hook: T): T {
  authenticatingHooks.add(hook);
  return hook;
}

/** Whether any of a route's onRequest hooks authenticates its caller. */
export function authenticatesCaller(hooks: unknown): boolean {
  const list = Array.isArray(hooks) ? hooks : [hooks];
  return list.some((hook) => typeof hook === 'function' && authenticatingHooks.has(hook));
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (!header) return undefined;
  return header.replace(/^Bearer\s+/i, '').trim() || undefined;
}

export function createAuth(sessions: SessionCodec, users: UserLookup): Auth {
  async function fromSession(request: FastifyRequest): Promise<UserRow | null> {
    const session = sessions.read(request.cookies[SESSION_COOKIE]);
    if (!session) return null;
    const user = await users.findById(session.uid);
    // A cookie from before the last sign-out or password change names an older generation.
    return user && sessions.isCurrent(session, user) ? user : null;
  }

  async function accessTokenUser(token: string): Promise<UserRow | null> {
    return (await users.findByAccessTokenHash(sha256Hex(token))) ?? null;
  }

  async function resolve(request: FastifyRequest): Promise<UserRow | null> {
    const sessionUser = await fromSession(request);
    if (sessionUser) return sessionUser;
    const token = bearerToken(request);
    if (!token) return null;
    const user = await accessTokenUser(token);
    if (!user) throw AppError.unauthorized('access token is invalid');
    return user;
  }

  function guard(minimumRole: number): onRequestAsyncHookHandler {
    return markAuthenticating(async (request: FastifyRequest) => {
      const user = await resolve(request);
      if (!user)
        throw AppError.unauthorized('not signed in: sign in or send an access token in the Authorization header');
      if (user.status !== UserStatus.enabled) throw AppError.forbidden('this user is disabled');
      if (user.role < minimumRole) {
        throw AppError.forbidden(
          `permission denied: this needs the ${minimumRole >= Role.root ? 'root' : 'admin'} role`,
        );
      }
      request.user = user;
    });
  }

  return {
    resolve,
    accessTokenUser,
    sessionUser: fromSession,
    requireUser: guard(Role.common),
    requireAdmin: guard(Role.admin),
    requireRoot: guard(Role.root),
    optionalUser: async (request) => {
      const user = await resolve(request).catch(() => null);
      request.user = user && user.status === UserStatus.enabled ? user : null;
    },
  };
}

/** The signed-in user of a guarded route. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw AppError.unauthorized('not signed in');
  return request.user;
}
