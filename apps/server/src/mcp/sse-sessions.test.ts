import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.js';
import { SseSessions } from './sse-sessions.js';

function session(userId: number, sessionId: string) {
  const transport = { sessionId, close: async () => undefined } as unknown as SSEServerTransport;
  return { userId, transport };
}

function statusOfRefusal(action: () => void): number {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).status;
  }
  return 0;
}

describe('SseSessions', () => {
  it('holds at most the allowed connections per user (429) and in all (503), and frees them on removal', () => {
    const sessions = new SseSessions({ total: 3, perUser: 2 });
    sessions.add(session(1, 'a'));
    sessions.add(session(1, 'b'));
    expect(statusOfRefusal(() => sessions.assertRoomFor(1))).toBe(429);
    expect(statusOfRefusal(() => sessions.assertRoomFor(2))).toBe(0);
    sessions.add(session(2, 'c'));
    expect(statusOfRefusal(() => sessions.assertRoomFor(3))).toBe(503);
    sessions.remove('a');
    expect(sessions.size).toBe(2);
    expect(statusOfRefusal(() => sessions.assertRoomFor(1))).toBe(0);
  });

  it('finds a session only for the user who opened it', () => {
    const sessions = new SseSessions();
    sessions.add(session(1, 'a'));
    expect(sessions.find('a', 1)?.userId).toBe(1);
    expect(sessions.find('a', 2)).toBeUndefined();
    expect(sessions.find('b', 1)).toBeUndefined();
  });
});
