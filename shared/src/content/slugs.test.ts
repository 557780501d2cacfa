import { describe, expect, it } from 'vitest';
import { slugify, uniqueSlug } from './index';

describe('slugs', () => {
  it.each([
    ['Getting Started', 'getting-started'],
    ['  API: v2 / REST  ', 'api-v2-rest'],
    ['Café crème brûlée', 'cafe-creme-brulee'],
    ['C++ & C#', 'c-c'],
    ['Привет, мир', 'привет-мир'],
    ['한국어 문서', '한국어-문서'],
    ['???', ''],
  ])('slugify(%j) is %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('caps the length without a trailing dash', () => {
    const slug = slugify(`${'word '.repeat(40)}end`);
    expect(slug.length).toBeLessThanOrEqual(100);
    expect(slug.endsWith('-')).toBe(false);
  });

  it('numbers a taken slug', () => {
    expect(uniqueSlug('intro', new Set(['intro', 'intro-2']))).toBe('intro-3');
    expect(uniqueSlug('intro', new Set())).toBe('intro');
  });
});
