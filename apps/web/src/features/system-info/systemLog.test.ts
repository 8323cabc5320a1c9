import { describe, expect, it } from 'vitest';
import { levelColor, shownLines } from './systemLog.js';

const line = (Level: string, Message: string, second: number) => ({
  Timestamp: `2026-12-06T20:00:0${second}.000Z`,
  Level,
  Message,
});

describe('system log lines', () => {
  const lines = [
    line('info', 'server listening', 1),
    line('warn', 'request refused: no channel', 2),
    line('error', 'database unreachable', 3),
    line('debug', 'cache hit', 4),
    line('fatal', 'out of memory', 5),
  ];

  it('shows the newest first, every line under "all"', () => {
    expect(shownLines(lines, 'all', '').map((entry) => entry.Message)).toEqual([
      'out of memory',
      'cache hit',
      'database unreachable',
      'request refused: no channel',
      'server listening',
    ]);
  });

  it('keeps the chosen level and the more severe ones', () => {
    expect(shownLines(lines, 'warn', '').map((entry) => entry.Level)).toEqual(['fatal', 'error', 'warn']);
    expect(shownLines(lines, 'error', '').map((entry) => entry.Level)).toEqual(['fatal', 'error']);
  });

  it('searches the message and the level, in any case', () => {
    expect(shownLines(lines, 'all', 'CHANNEL').map((entry) => entry.Message)).toEqual(['request refused: no channel']);
    expect(shownLines(lines, 'all', 'debug').map((entry) => entry.Message)).toEqual(['cache hit']);
  });

  it('keys lines of the same time apart', () => {
    const same = [line('info', 'a', 1), line('info', 'b', 1), line('info', 'c', 2)];
    expect(shownLines(same, 'all', '').map((entry) => entry.key)).toEqual([
      '2026-12-06T20:00:02.000Z#0',
      '2026-12-06T20:00:01.000Z#1',
      '2026-12-06T20:00:01.000Z#0',
    ]);
  });

  it('colours by severity, an unknown level as info', () => {
    expect(['fatal', 'error', 'warn', 'info', 'debug', 'odd'].map(levelColor)).toEqual([
      'error',
      'error',
      'warning',
      'info',
      'secondary',
      'info',
    ]);
  });
});
