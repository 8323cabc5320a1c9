import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.js';

describe('secret box', () => {
  const box = createSecretBox('server-secret-0123456789', 'tokens');

  it('round-trips and never stores the plain text', () => {
    const sealed = box.seal('sk-very-secret');
    expect(sealed).not.toContain('very-secret');
    expect(box.open(sealed)).toBe('sk-very-secret');
    expect(box.seal('sk-very-secret')).not.toBe(sealed);
  });

  it('refuses values sealed under another secret or purpose, or altered', () => {
    const sealed = box.seal('value');
    expect(() => createSecretBox('another-secret-0123456789', 'tokens').open(sealed)).toThrow();
    expect(() => createSecretBox('server-secret-0123456789', 'channels').open(sealed)).toThrow();
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => box.open(altered)).toThrow();
    expect(() => box.open('plain')).toThrow('not a sealed value');
  });
});
