import type { OpenAPIDocument } from '../core/openapi/parse';
import { schemaChunks, tagTree } from '../core/openapi/tags';
import { findTag } from './apiPages';
import type { Located, SiteRequest } from './context';
import type { LinkResolver } from './render/body';
import { schemaAnchor } from './render/apiContext';
import { type ApiNav, type ApiReference, apiOperationPage, apiOverview, apiSchemasPage, apiTagPage } from './render/openapi';

/** The part of a spec an API reference page shows, with links to the reference's other pages; undefined when that part is gone. */
export function apiPart(req: SiteRequest, loc: Located, spec: OpenAPIDocument, links: LinkResolver): ApiReference | undefined {
  const { page, flat } = loc;
  const root = page.id.split('~api~')[0] as string;
  const url = (id: string) => {
    const target = flat.find((p) => p.id === id);
    return target ? req.pageUrl(loc.section, loc.variant, flat, target) : undefined;
  };
  const schemasPage = flat.find((p) => p.api?.kind === 'schemas' && p.api.chunk === undefined && p.id.startsWith(`${root}~api~`));
  const chunks = schemaChunks(spec);
  const chunkOf = new Map(chunks.flatMap((names, i) => names.map((n) => [n, i] as const)));
  const chunkUrl = (i: number) => (schemasPage ? url(chunks.length > 1 ? `${schemasPage.id}/${i + 1}` : schemasPage.id) : undefined);
  const nav: ApiNav & { chunk(i: number): string | undefined } = {
    tag: (slugs) => url(`${root}~api~${slugs.join('/')}`),
    operation: (slugs, slug) => url(`${root}~api~${slugs.join('/')}/${slug}`),
    schemas: schemasPage ? url(schemasPage.id) : undefined,
    chunk: chunkUrl,
    schema: (name) => {
      const i = chunkOf.get(name);
      const at = i === undefined ? undefined : chunkUrl(i);
      if (!at) return undefined;
      // On the page itself, the anchor alone.
      return at === url(page.id) ? `#${schemaAnchor(name)}` : `${at}#${schemaAnchor(name)}`;
    },
  };
  const part = page.api ?? { kind: 'overview' };
  const tags = tagTree(spec);
  switch (part.kind) {
    case 'overview':
      return apiOverview(spec, tags, links, nav);
    case 'schemas':
      return apiSchemasPage(spec, chunks, part.chunk, links, nav);
    case 'tag': {
      const tag = findTag(tags, part.tags);
      return tag ? apiTagPage(spec, tag, part.tags, links, nav) : undefined;
    }
    case 'operation': {
      const tag = findTag(tags, part.tags);
      const entry = tag?.operations.find((o) => o.slug === part.operation);
      return tag && entry ? apiOperationPage(spec, tag, entry, links, nav) : undefined;
    }
  }
}
