import { describe, expect, it } from 'vitest';
import type { OpenAPIDocument } from './parse';
import { specOperations } from './render';
import { OPERATIONS_PER_TAG_PAGE, schemaChunks, tagTree, tryItHidden } from './tags';

const op = (tag: string, summary: string, extra: Record<string, unknown> = {}) => ({ tags: [tag], summary, responses: {}, ...extra });

const spec = {
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  tags: [
    { name: 'orgs', 'x-page-title': 'Organizations' },
    { name: 'members', 'x-parent': 'orgs' },
    { name: 'secret', 'x-internal': true },
    { name: 'a', 'x-parent': 'b' },
    { name: 'b', 'x-parent': 'a' },
    { name: 'ghost', 'x-parent': 'nowhere' },
    { name: 'quiet', 'x-hideTryItPanel': true },
    { name: 'empty' },
  ],
  paths: {
    '/orgs': { post: op('orgs', 'Create'), get: op('orgs', 'List'), delete: op('orgs', 'Drop', { 'x-internal': true }) },
    '/orgs/{id}/members': { put: op('members', 'Replace'), get: op('members', 'Members') },
    '/secret': { get: op('secret', 'Hidden') },
    '/a': { get: op('a', 'A') },
    '/b': { get: op('b', 'B') },
    '/ghost': { get: op('ghost', 'Ghost') },
    '/quiet': { get: op('quiet', 'Quiet') },
    '/loose': { get: { summary: 'Untagged', responses: {} } },
  },
} as unknown as OpenAPIDocument;

describe('the tags of a spec as readers navigate them', () => {
  it('keeps methods in the order the path lists them and leaves internal operations and tags out', () => {
    expect(specOperations(spec).map((o) => o.summary)).toEqual([
      'Create',
      'List',
      'Replace',
      'Members',
      'A',
      'B',
      'Ghost',
      'Quiet',
      'Untagged',
    ]);
  });

  it('titles tags by x-page-title, nests them by x-parent, and puts cycles and unknown parents at the top', () => {
    const tree = tagTree(spec);
    const shape = (list: typeof tree): unknown => list.map((t) => [t.title, t.slug, ...(t.children.length ? [shape(t.children)] : [])]);
    expect(shape(tree)).toEqual([
      ['Organizations', 'organizations', [['members', 'members']]],
      ['a', 'a'],
      ['b', 'b'],
      ['ghost', 'ghost'],
      ['quiet', 'quiet'],
      ['Other operations', 'other-operations'],
    ]);
    const quiet = tree.find((t) => t.name === 'quiet');
    expect(tryItHidden(spec, quiet, quiet?.operations[0]?.op as never)).toBe(true);
    const orgs = tree[0];
    expect(tryItHidden(spec, orgs, orgs?.operations[0]?.op as never)).toBe(false);
  });

  it('gives each operation its own page in a tag of many, and splits many schemas in alphabetical pages', () => {
    const paths = Object.fromEntries(
      Array.from({ length: OPERATIONS_PER_TAG_PAGE + 1 }, (_, i) => [`/p${i}`, { get: op('big', `Op ${i}`, { operationId: 'same' }) }]),
    );
    const big = tagTree({ ...spec, tags: [], paths } as unknown as OpenAPIDocument)[0];
    expect(big?.split).toBe(true);
    expect(new Set(big?.operations.map((o) => o.slug)).size).toBe(OPERATIONS_PER_TAG_PAGE + 1);
    const schemas = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`S${String(249 - i).padStart(3, '0')}`, {}]));
    const chunks = schemaChunks({ ...spec, components: { schemas } } as unknown as OpenAPIDocument);
    expect(chunks.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunks[0]?.[0]).toBe('S000');
  });
});
