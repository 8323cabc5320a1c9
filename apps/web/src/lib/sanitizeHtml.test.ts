// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitizeHtml.js';

/** The sanitised HTML parsed back, to ask about elements and attributes rather than spelling. */
function parse(html: string): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = sanitizeHtml(html);
  return container;
}

describe('sanitizeHtml', () => {
  it('keeps ordinary markup, links and images', () => {
    const html =
      '<h1 class="title">Welcome</h1><p style="color: red">Read <a href="https://docs.example.com/a?b=1" target="_blank">the docs</a>, ' +
      '<a href="/panel/topup">top up</a> or <a href="mailto:ops@example.com">write</a>.</p>' +
      '<img src="https://cdn.example.com/logo.png" alt="logo"><ul><li><strong>fast</strong></li></ul>';
    const page = parse(html);
    expect(page.querySelector('h1')?.textContent).toBe('Welcome');
    expect(page.querySelector('h1')?.className).toBe('title');
    expect(page.querySelector('p')?.getAttribute('style')).toBe('color: red');
    const links = [...page.querySelectorAll('a')].map((link) => link.getAttribute('href'));
    expect(links).toEqual(['https://docs.example.com/a?b=1', '/panel/topup', 'mailto:ops@example.com']);
    const external = page.querySelector('a[target]');
    expect(external?.getAttribute('target')).toBe('_blank');
    expect(external?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(page.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/logo.png');
    expect(page.querySelector('li strong')?.textContent).toBe('fast');
  });

  it('removes scripts, event handlers and javascript: links', () => {
    const page = parse(
      '<p onclick="steal()">hi</p><script>steal()</script><img src="x" onerror="steal()">' +
        '<a href="javascript:steal()">a</a><a href=" JaVaScRiPt:steal()">b</a><a href="data:text/html,<script>x</script>">c</a>' +
        '<svg><script>steal()</script><a xlink:href="javascript:steal()">d</a></svg>',
    );
    expect(page.querySelector('script')).toBeNull();
    expect(page.innerHTML).not.toMatch(/steal|onerror|onclick|javascript:|data:/i);
    expect(page.querySelector('p')?.textContent).toBe('hi');
    expect(page.querySelector('img')?.getAttribute('src')).toBe('x');
    // The links stay as text, without their address.
    expect([...page.querySelectorAll('a')].map((link) => link.textContent)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('removes frames, plugins, styles and forms', () => {
    const page = parse(
      '<iframe src="https://evil.example"></iframe><object data="x.swf"></object><embed src="x.swf">' +
        '<style>body{display:none}</style><form action="https://evil.example"><input name="password"><button>go</button></form>' +
        '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example"><p>kept</p>',
    );
    expect(page.querySelector('iframe, object, embed, style, form, input, button, base, meta')).toBeNull();
    expect(page.innerHTML).not.toContain('evil.example');
    expect(page.querySelector('p')?.textContent).toBe('kept');
  });
});
