import type { ElementContent } from 'hast';
import type { OpenAPIDocument } from '../../core/openapi/parse';
import { specOperations } from '../../core/openapi/render';
import { type ApiOperationEntry, type ApiTag, tryItHidden } from '../../core/openapi/tags';
import { badge, Context, schemaAnchor } from './apiContext';
import { el, type LinkResolver, type OutlineEntry, txt } from './body';

/**
 * API reference pages of published sites, from an OpenAPI 3.x or Swagger 2 document in
 * the author's order: an overview (the spec's own page), a page per tag, per operation
 * when a tag has many, and one for the named schemas. Operations show their method,
 * parameters, request and response schemas (nested `<details>`; named schemas link to
 * their entry), examples, generated request samples (curl and JavaScript), response
 * headers and the security they need. A "try it" console is added by the site's script
 * from the `data-*` attributes; without script the page reads whole.
 */

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export interface ApiReference {
  children: ElementContent[];
  outline: OutlineEntry[];
  math: string[];
  /** Origins the try-it console may call (the spec's servers). */
  connect: string[];
  title: string;
  description?: string;
}

/** URLs of the other pages of the same reference. */
export interface ApiNav {
  tag(slugs: string[]): string | undefined;
  operation(slugs: string[], slug: string): string | undefined;
  /** The schemas page (undefined: the spec has none). */
  schemas?: string;
  /** Where a named schema's entry is. */
  schema(name: string): string | undefined;
}

function result(ctx: Context, children: ElementContent[], title: string, description?: string): ApiReference {
  return { children, outline: ctx.outline, math: ctx.math, connect: ctx.origins(), title, description };
}

const schemaLinks = (nav: ApiNav) => (name: string) => nav.schema(name);

/** The spec's own page: what it is, where it runs, how to authenticate, and its tags. */
export function apiOverview(spec: OpenAPIDocument, tags: ApiTag[], links: LinkResolver, nav: ApiNav): ApiReference {
  const ctx = new Context(spec, links, { schemaHref: schemaLinks(nav) });
  const info = isObject(spec.info) ? spec.info : ({} as Obj);
  const children: ElementContent[] = [];
  const head: ElementContent[] = [];
  if (str(info.version)) head.push(el('span', { className: ['api-version'] }, [txt(`Version ${String(info.version)}`)]));
  for (const s of ctx.servers()) head.push(el('span', { className: ['api-server'] }, [el('code', {}, [txt(s)])]));
  if (head.length) children.push(el('div', { className: ['api-meta'] }, head));
  if (str(info.description)) children.push(...ctx.markdown(String(info.description)));
  const auth = ctx.securitySchemes();
  if (auth.length) children.push(ctx.heading(2, 'Authentication', 'authentication'), ...auth);
  if (tags.length) children.push(ctx.heading(2, 'Endpoints', 'endpoints'), tagCards(tags, [], nav));
  if (!specOperations(spec).length) children.push(el('p', {}, [txt('This specification has no operations.')]));
  if (nav.schemas) children.push(el('p', {}, [el('a', { href: nav.schemas }, [txt('Schemas')])]));
  return result(ctx, children, str(info.title) ?? 'API reference', str(info.summary));
}

function tagCards(tags: ApiTag[], parents: string[], nav: ApiNav): ElementContent {
  return el(
    'div',
    { className: ['api-tags'] },
    tags.map((t) => {
      const href = nav.tag([...parents, t.slug]);
      const first = t.description
        ?.split(/\n\s*\n/)[0]
        ?.replace(/[#*_`>[\]]/g, '')
        .trim();
      return el('a', { className: ['content-ref'], href }, [
        el('span', { className: ['content-ref-text'] }, [
          el('span', { className: ['content-ref-title'] }, [txt(t.title)]),
          ...(first ? [el('span', { className: ['content-ref-description'] }, [txt(first)])] : []),
        ]),
        el('span', { className: ['content-ref-arrow'], ariaHidden: 'true' }, [txt('→')]),
      ]);
    }),
  );
}

/** A tag's page: its operations, or when it has many, the list of their pages; then its nested tags. */
export function apiTagPage(spec: OpenAPIDocument, tag: ApiTag, slugs: string[], links: LinkResolver, nav: ApiNav): ApiReference {
  const ctx = new Context(spec, links, { schemaHref: schemaLinks(nav), hideTryIt: (op) => tryItHidden(spec, tag, op) });
  const children: ElementContent[] = [];
  if (tag.description) children.push(...ctx.markdown(tag.description));
  if (tag.split)
    children.push(
      el(
        'ul',
        { className: ['api-operation-list'] },
        tag.operations.map((o) =>
          el('li', {}, [
            el('a', { href: nav.operation(slugs, o.slug) }, [badge(o.op.method), el('span', {}, [txt(o.title)])]),
            el('code', {}, [txt(o.op.path)]),
          ]),
        ),
      ),
    );
  else for (const o of tag.operations) children.push(ctx.operation(o.op, 2));
  if (tag.children.length) children.push(tagCards(tag.children, slugs, nav));
  return result(ctx, children, tag.title);
}

/** One operation's page (its tag has many). */
export function apiOperationPage(
  spec: OpenAPIDocument,
  tag: ApiTag,
  entry: ApiOperationEntry,
  links: LinkResolver,
  nav: ApiNav,
): ApiReference {
  const ctx = new Context(spec, links, { schemaHref: schemaLinks(nav), hideTryIt: (op) => tryItHidden(spec, tag, op) });
  return result(ctx, [ctx.operation(entry.op, 2, false)], entry.title);
}

/**
 * Named schemas, each with its own fields (deeper named schemas link to their entry): all
 * of them, or one alphabetical chunk of many. The page of many chunks lists them.
 */
export function apiSchemasPage(
  spec: OpenAPIDocument,
  chunks: string[][],
  chunk: number | undefined,
  links: LinkResolver,
  nav: ApiNav & { chunk(i: number): string | undefined },
): ApiReference {
  const ctx = new Context(spec, links, { schemaHref: (name) => nav.schema(name) });
  if (chunk === undefined && chunks.length > 1)
    return result(
      ctx,
      [
        el(
          'ul',
          { className: ['api-operation-list'] },
          chunks.map((names, i) => el('li', {}, [el('a', { href: nav.chunk(i) }, [txt(`${names[0]} – ${names.at(-1)}`)])])),
        ),
      ],
      'Schemas',
    );
  const names = chunks[chunk ?? 0] ?? [];
  return result(ctx, ctx.componentSchemas(names), chunk === undefined ? 'Schemas' : `Schemas: ${names[0]} – ${names.at(-1)}`);
}

/** One operation (an `openapiOperation` block in a page), or undefined when the spec has no such operation. */
export function apiOperation(
  spec: OpenAPIDocument,
  path: string,
  method: string,
  links: LinkResolver,
): { children: ElementContent[]; connect: string[]; outline: OutlineEntry[] } | undefined {
  const op = specOperations(spec).find((o) => o.path === path && o.method === method.toLowerCase());
  if (!op) return undefined;
  const ctx = new Context(spec, links, { hideTryIt: (o) => tryItHidden(spec, undefined, o) });
  return { children: [ctx.operation(op, 2)], connect: ctx.origins(), outline: ctx.outline };
}

/** Says on the page that a spec could not be read, and why. */
export function failedSpec(title: string, problems: string[]): ElementContent[] {
  return [
    el('div', { className: ['hint', 'hint-danger'], role: 'note' }, [
      el('span', { className: ['hint-icon'], ariaHidden: 'true' }),
      el('div', { className: ['hint-body'] }, [
        el('p', {}, [el('strong', {}, [txt(`The API specification “${title}” could not be loaded.`)])]),
        ...(problems.length
          ? [
              el(
                'ul',
                {},
                problems.slice(0, 10).map((p) => el('li', {}, [txt(p)])),
              ),
            ]
          : []),
      ]),
    ]),
  ];
}
