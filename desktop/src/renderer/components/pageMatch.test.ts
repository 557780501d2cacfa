import type { PageTreeNode } from '@quire/shared/content/tree';
import { describe, expect, it } from 'vitest';
import { matchPages } from './pageMatch';

const page = (title: string, path = title.toLowerCase().replace(/ /g, '-')) => ({ id: title, title, path }) as PageTreeNode;
const pages = ['Install the CLI', 'OAuth apps', 'Authentication', 'Auth', 'Webhooks', 'Git sync', 'Teams and roles', 'Deploy']
  .map((t) => page(t))
  .concat(page('Tokens', 'guides/auth-tokens'));
const titles = (q: string) => matchPages(pages, q).map((p) => p.title);

describe('matchPages', () => {
  it('puts the exact title first, then titles starting with the query, holding it, then paths', () => {
    expect(titles('auth')).toEqual(['Auth', 'Authentication', 'OAuth apps', 'Tokens']);
  });

  it('forgives a letter missing, wrong or swapped with its neighbour', () => {
    expect(titles('authentcation')[0]).toBe('Authentication');
    expect(titles('atuh').slice(0, 2)).toEqual(['Auth', 'Authentication']);
    expect(titles('dpeloy')).toEqual(['Deploy']);
    expect(titles('webhoks')).toEqual(['Webhooks']);
  });

  it('needs every word, and finds nothing for what is not there', () => {
    expect(titles('git snyc')).toEqual(['Git sync']);
    expect(titles('nope')).toEqual([]);
    expect(titles('xyz')).toEqual([]);
  });
});
