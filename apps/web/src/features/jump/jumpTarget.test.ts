import { describe, expect, it } from 'vitest';
import { jumpTarget } from './jumpTarget.js';

describe('jumpTarget', () => {
  it('accepts absolute http and https addresses', () => {
    expect(jumpTarget('?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1')).toBe('https://example.com/a?b=1');
    expect(jumpTarget('?url=http://example.com')).toBe('http://example.com/');
  });

  it('refuses other schemes, relative paths and a missing parameter', () => {
    expect(jumpTarget('?url=javascript:alert(1)')).toBeNull();
    expect(jumpTarget('?url=data:text/html,hi')).toBeNull();
    expect(jumpTarget('?url=/panel')).toBeNull();
    expect(jumpTarget('?url=')).toBeNull();
    expect(jumpTarget('')).toBeNull();
  });
});
