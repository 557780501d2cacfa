import { describe, expect, it } from 'vitest';
import { esc, safeHref } from './html';

describe('safeHref', () => {
  it.each([
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'JAVASCRIPT:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/path',
    ' //evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    'file:///etc/passwd',
    "javascript:fetch('https://evil.example')",
    'data:text/html,mailto:x',
  ])('neutralises %j', (url) => {
    expect(safeHref(url)).toBe('#');
  });

  it.each([
    ['https://example.com/a?b=1&c=2', 'https://example.com/a?b=1&amp;c=2'],
    ['http://example.com', 'http://example.com'],
    ['mailto:team@example.com', 'mailto:team@example.com'],
    ['tel:+123', 'tel:+123'],
    ['/docs/page', '/docs/page'],
    ['#install', '#install'],
    ['?theme=dark', '?theme=dark'],
    ['/docs//page', '/docs//page'],
    ['/a?next=//b', '/a?next=//b'],
  ])('keeps %j', (url, expected) => {
    expect(safeHref(url)).toBe(expected);
  });

  it('escapes what it keeps, so it cannot close the attribute', () => {
    expect(safeHref('https://example.com/"onmouseover="alert(1)')).toBe('https://example.com/&quot;onmouseover=&quot;alert(1)');
  });

  it('gives # for nothing', () => {
    expect(safeHref(undefined)).toBe('#');
    expect(safeHref('')).toBe('#');
  });
});

describe('esc', () => {
  it('escapes every character that can end text or an attribute value', () => {
    expect(esc(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('renders null and undefined as nothing', () => {
    expect(esc(null)).toBe('');
    expect(esc(undefined)).toBe('');
  });
});
