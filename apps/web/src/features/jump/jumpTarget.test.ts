import { describe, expect, it } from 'vitest';
import { allowedJumpOrigins, jumpTarget } from './jumpTarget.js';

const origin = 'https://hub.example.com';
const rules = { origin, allowedOrigins: ['https://app.nextchat.dev', 'http://chat.lan:8080'] };
const jump = (url: string) => jumpTarget(`?url=${encodeURIComponent(url)}`, rules);

describe('jumpTarget', () => {
  it('follows paths and addresses on this site', () => {
    expect(jump('/panel/token')).toEqual({ kind: 'internal', href: `${origin}/panel/token` });
    expect(jump(`${origin}/about?x=1`)).toEqual({ kind: 'internal', href: `${origin}/about?x=1` });
  });

  it('follows http(s) addresses on the allowed origins only', () => {
    expect(jumpTarget('?url=https%3A%2F%2Fapp.nextchat.dev%2F%23%2F%3Fs%3D1', rules)).toEqual({
      kind: 'external',
      href: 'https://app.nextchat.dev/#/?s=1',
    });
    expect(jump('http://chat.lan:8080/x')).toEqual({ kind: 'external', href: 'http://chat.lan:8080/x' });
    expect(jump('https://evil.example/')).toBeNull();
    expect(jump('http://app.nextchat.dev/')).toBeNull();
    expect(jump('https://app.nextchat.dev.evil.example/')).toBeNull();
    expect(jump('https://app.nextchat.dev@evil.example/')).toBeNull();
    expect(jump('https://user:pass@app.nextchat.dev/')).toBeNull();
  });

  it('refuses other schemes, other hosts behind a path, relative paths and a missing parameter', () => {
    expect(jump('javascript:alert(1)')).toBeNull();
    expect(jump(' JavaScript:alert(1)')).toBeNull();
    expect(jump('data:text/html,hi')).toBeNull();
    expect(jump('//evil.example/x')).toBeNull();
    expect(jump('/\\evil.example/x')).toBeNull();
    expect(jump('panel')).toBeNull();
    expect(jumpTarget('?url=', rules)).toBeNull();
    expect(jumpTarget('', rules)).toBeNull();
  });
});

describe('allowedJumpOrigins', () => {
  it('takes the web origins of the configured chat links, placeholders filled', () => {
    const chatLinks = JSON.stringify([
      {
        name: 'Web',
        url: 'https://chat.example.org/#/?settings={"key":"{key}","url":"{server}"}',
        show: true,
        sort: 1,
      },
      { name: 'Self', url: '{server}/chat?key={key}', show: true, sort: 2 },
      { name: 'App', url: 'opencat://team/join?domain={server}&token={key}', show: true, sort: 3 },
      { name: 'Broken', url: 'not a url', show: true, sort: 4 },
    ]);
    const origins = allowedJumpOrigins(
      { chat_link: 'https://single.example.net/x', chat_links: chatLinks, server_address: '' },
      origin,
    );
    expect(origins.sort()).toEqual(['https://chat.example.org', origin, 'https://single.example.net'].sort());
  });

  it('falls back to the default chat links when none are set', () => {
    expect(allowedJumpOrigins({ chat_link: '', chat_links: '' }, origin)).toContain('https://app.nextchat.dev');
  });
});
