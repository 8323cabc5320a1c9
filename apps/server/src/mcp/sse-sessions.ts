import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { AppError } from '../platform/errors.js';

/** Open SSE connections one process keeps at most, and one user may hold at once. */
export const SSE_SESSION_LIMITS = { total: 1000, perUser: 20 };

export interface SseSession {
  userId: number;
  transport: SSEServerTransport;
}

/**
 * The SSE connections this process holds open, by the session id the SDK hands the client in its
 * `endpoint` event; the client posts its messages with that id. Bounded: a connection past a limit
 * is refused with 503 rather than held.
 */
export class SseSessions {
  private readonly sessions = new Map<string, SseSession>();
  private readonly perUser = new Map<number, number>();

  constructor(private readonly limits = SSE_SESSION_LIMITS) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Throws when the process or the user holds as many connections as allowed. */
  assertRoomFor(userId: number): void {
    if (this.sessions.size >= this.limits.total) {
      throw new AppError('unavailable', 'this server holds as many MCP SSE connections as it can; retry later', {
        retryable: true,
      });
    }
    if ((this.perUser.get(userId) ?? 0) >= this.limits.perUser) {
      throw new AppError(
        'rate_limited',
        `at most ${this.limits.perUser} MCP SSE connections per user are open at once`,
      );
    }
  }

  add(session: SseSession): void {
    this.sessions.set(session.transport.sessionId, session);
    this.perUser.set(session.userId, (this.perUser.get(session.userId) ?? 0) + 1);
  }

  remove(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    const count = (this.perUser.get(session.userId) ?? 1) - 1;
    if (count > 0) this.perUser.set(session.userId, count);
    else this.perUser.delete(session.userId);
  }

  /** The user's session of that id; another user's session is as unknown as a missing one. */
  find(sessionId: string, userId: number): SseSession | undefined {
    const session = this.sessions.get(sessionId);
    return session?.userId === userId ? session : undefined;
  }

  /** Ends every connection (at shutdown): each one's close handler removes it. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.transport.close()));
  }
}
