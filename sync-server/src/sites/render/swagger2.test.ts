import type { ElementContent } from 'hast';
import { describe, expect, it } from 'vitest';
import type { OpenAPIDocument } from '../../core/openapi/parse';
import { renderOpenAPIOperations } from '../../core/openapi/render';
import type { LinkResolver } from './body';
import { apiOperation } from './openapi';

/** A Swagger 2 spec: request bodies are parameters there (`in: body`, or `formData` fields). */
const spec = {
  swagger: '2.0',
  info: { title: 'Pets', version: '1' },
  consumes: ['multipart/form-data'],
  paths: {
    '/pets': {
      post: {
        summary: 'Add a pet',
        consumes: ['application/xml'],
        parameters: [
          {
            in: 'body',
            name: 'pet',
            description: 'The pet to add',
            schema: { type: 'object', properties: { petName: { type: 'string' } } },
          },
        ],
        responses: { '201': { description: 'Added' } },
      },
    },
    '/photos': {
      post: {
        summary: 'Upload a photo',
        parameters: [
          { in: 'formData', name: 'photoFile', type: 'file', required: true },
          { in: 'formData', name: 'caption', type: 'string' },
        ],
        responses: { '200': { description: 'Uploaded' } },
      },
    },
  },
} as unknown as OpenAPIDocument;

const links: LinkResolver = { page: () => undefined, file: () => undefined, externalTarget: 'self' };

function text(nodes: ElementContent[]): string {
  return nodes.map((n) => (n.type === 'text' ? n.value : 'children' in n ? text(n.children as ElementContent[]) : '')).join(' ');
}

describe('Swagger 2 request bodies', () => {
  it('are shown in the markdown of an operation block: the body parameter, or the form fields', () => {
    const md = renderOpenAPIOperations(spec);
    expect(md).toContain('Content type: `application/xml`');
    expect(md).toContain('The pet to add');
    expect(md).toMatch(/\| `petName` \| string \|/);
    // Only an operation's own `consumes` counts here; a form defaults to URL encoding.
    expect(md).toContain('Content type: `application/x-www-form-urlencoded`');
    expect(md).toMatch(/\| `photoFile` \| file \| yes \|/);
    expect(md).toMatch(/\| `caption` \| string \| no \|/);
  });

  it('are shown on a published API page, with the spec-wide media type when the operation names none', () => {
    const pets = text(apiOperation(spec, '/pets', 'post', links)?.children ?? []);
    expect(pets).toContain('application/xml');
    expect(pets).toContain('The pet to add');
    expect(pets).toContain('petName');
    const photos = text(apiOperation(spec, '/photos', 'post', links)?.children ?? []);
    expect(photos).toContain('multipart/form-data');
    expect(photos).toContain('photoFile');
    expect(photos).toContain('caption');
  });
});
