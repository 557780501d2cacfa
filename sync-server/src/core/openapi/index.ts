/**
 * OpenAPI specifications: parsing and validation, background processing, and the
 * markdown that `builtin:openapi` pages show. Other parts (page reads, published sites,
 * the app) import from here only.
 */
import type { NodeJSON } from '@quire/shared/content/json';
import { markdownToBody } from '@quire/shared/content/index';
import type { Queryable } from '../../store/db';
import { getSpecByRef, latestSpecDocument } from '../../store/openapiSpecs';
import type { OpenAPIDocument } from './parse';
import { type RenderOptions, renderOpenAPIOperations } from './render';

export { parseSpecText, validateStructure, type OpenAPIDocument, type ParseResult } from './parse';
export { renderOpenAPIOperations, specOperations, type RenderOptions, type SpecOperation } from './render';
export { processSpec, resumeUnfinishedSpecs, scheduleSpecProcessing } from './process';

/**
 * The operations of an organization's spec (by id or slug, as a page's
 * `computed.dependencies.spec.ref` names it) as markdown, from its latest successful
 * processing; undefined when the spec is unknown or has never been processed.
 */
export async function renderSpecOperations(
  db: Queryable,
  orgId: string,
  specRef: string,
  opts: RenderOptions = {},
): Promise<{ markdown: string; specId: string; versionId: string } | undefined> {
  const spec = await getSpecByRef(db, orgId, specRef);
  if (!spec) return undefined;
  const latest = await latestSpecDocument(db, spec.id);
  if (!latest) return undefined;
  return { markdown: renderOpenAPIOperations(latest.document as OpenAPIDocument, opts), specId: spec.id, versionId: latest.versionId };
}

/**
 * The spec a `builtin:openapi` page shows, from its `computed` definition:
 * `dependencies.spec.ref` is a content reference `{kind: 'openapi', spec: <id or slug>}`.
 */
export function computedSpecRef(computed: unknown): string | undefined {
  const c = computed as { type?: unknown; dependencies?: { spec?: { ref?: { kind?: unknown; spec?: unknown } } } } | null | undefined;
  if (!c || c.type !== 'builtin:openapi') return undefined;
  const ref = c.dependencies?.spec?.ref;
  return ref && ref.kind === 'openapi' && typeof ref.spec === 'string' ? ref.spec : undefined;
}

/**
 * The body a computed page shows instead of its stored one (ProseMirror JSON of the
 * content model), for renderers that work on bodies; undefined when the page is not
 * computed, or its spec is unknown or never processed (the stored body is shown then).
 */
export async function computedPageBody(db: Queryable, orgId: string, computed: unknown): Promise<NodeJSON | undefined> {
  const ref = computedSpecRef(computed);
  if (!ref) return undefined;
  const rendered = await renderSpecOperations(db, orgId, ref);
  return rendered ? markdownToBody(rendered.markdown).doc : undefined;
}
