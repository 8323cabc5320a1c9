import { describe, expect, it } from 'vitest';
import { richContentKind } from './richContent.js';

describe('richContentKind', () => {
  it('embeds a lone http(s) URL', () => {
    expect(richContentKind(' https://status.example.com/page \n')).toBe('url');
    expect(richContentKind('see https://example.com')).toBe('markdown');
    expect(richContentKind('javascript:alert(1)')).toBe('markdown');
  });

  it('treats tag-wrapped text as HTML and the rest as markdown', () => {
    expect(richContentKind('<div><h1>Hi</h1></div>')).toBe('html');
    expect(richContentKind('# Title\n\n<b>x</b>')).toBe('markdown');
  });
});
