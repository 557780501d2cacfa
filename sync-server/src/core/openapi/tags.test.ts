import { describe, expect, it } from 'vitest';
import type { OpenAPIDocument } from './parse';
import { specOperations } from './render';
import { OPERATIONS_PER_TAG_PAGE, SPEC_BYTES_PER_TAG_PAGE, schemaChunks, tagTree, tryItHidden } from './tags';

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

  it('gives each operation its own page when a few operations carry a large part of the spec', () => {
    // A schema of 600 described fields: about 90 KB of JSON, named once and used by two operations.
    const fields = Object.fromEntries(
      Array.from({ length: 600 }, (_, i) => [
        `field${i}`,
        { type: 'string', description: `What field ${i} holds, and when it is left out. `.repeat(3) },
      ]),
    );
    const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Export' } } } };
    const heavy = {
      ...spec,
      tags: [],
      components: { schemas: { Export: { type: 'object', properties: fields }, Unused: { type: 'object', properties: fields } } },
      paths: {
        '/exports': {
          post: op('exports', 'Start', { requestBody: body }),
          get: op('exports', 'List', { responses: { 200: { description: 'ok', ...body } } }),
        },
        '/light': { get: op('light', 'One'), post: op('light', 'Two') },
      },
    } as unknown as OpenAPIDocument;
    expect(JSON.stringify(heavy.components).length / 2).toBeLessThan(SPEC_BYTES_PER_TAG_PAGE);
    const tree = tagTree(heavy);
    // Each operation shows the whole schema: two of them are past the weight a page may hold.
    expect(tree.find((t) => t.name === 'exports')?.split).toBe(true);
    expect(tree.find((t) => t.name === 'light')?.split).toBe(false);
    // One heavy operation alone stays on its tag's page: splitting would not make it lighter.
    const both = { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Unused' } } } } };
    const single = {
      ...heavy,
      paths: { '/exports': { post: op('exports', 'Start', { requestBody: body, responses: both }) } },
    } as unknown as OpenAPIDocument;
    expect(tagTree(single)[0]?.split).toBe(false);
  });
});
