import { LogType } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { countsOnlyUsage } from './LogStats.js';

describe('what the log header figures count', () => {
  it('follow the list when no type or the usage type is chosen', () => {
    expect(countsOnlyUsage(0)).toBe(false);
    expect(countsOnlyUsage(LogType.consume)).toBe(false);
  });

  it('say they count usage only when another type is chosen', () => {
    for (const type of [LogType.topup, LogType.manage, LogType.system, LogType.error]) {
      expect(countsOnlyUsage(type), String(type)).toBe(true);
    }
  });
});
