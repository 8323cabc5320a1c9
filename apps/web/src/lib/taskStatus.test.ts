import { describe, expect, it } from 'vitest';
import { durationParts, elapsedSeconds, progressPercent, statusColor, statusKey } from './taskStatus.js';

describe('task status display', () => {
  it('colours success green, failure red, running blue, modal orange and not started grey', () => {
    expect(statusColor('SUCCESS')).toBe('success');
    expect(statusColor('FAILURE')).toBe('error');
    expect(statusColor('IN_PROGRESS')).toBe('info');
    expect(statusColor('SUBMITTED')).toBe('info');
    expect(statusColor('MODAL')).toBe('warning');
    expect(statusColor('NOT_START')).toBe('secondary');
    expect(statusColor('SOMETHING_NEW')).toBe('secondary');
  });

  it('names unknown statuses UNKNOWN', () => {
    expect(statusKey('QUEUED')).toBe('QUEUED');
    expect(statusKey('weird')).toBe('UNKNOWN');
  });

  it('reads progress from text or number, within 0–100', () => {
    expect(progressPercent('45%')).toBe(45);
    expect(progressPercent('100%')).toBe(100);
    expect(progressPercent('')).toBe(0);
    expect(progressPercent(130)).toBe(100);
    expect(progressPercent(-3)).toBe(0);
  });

  it('measures time taken only when both ends are known', () => {
    expect(elapsedSeconds(100, 190)).toBe(90);
    expect(elapsedSeconds(100_000, 190_400, 1000)).toBe(90);
    expect(elapsedSeconds(100, 0)).toBeNull();
    expect(elapsedSeconds(200, 100)).toBeNull();
    expect(durationParts(3725)).toEqual({ hours: 1, minutes: 2, seconds: 5 });
  });
});
