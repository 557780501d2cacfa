/**
 * OpenAPI specifications: parsing and validation, background processing, and the
 * markdown that `builtin:openapi` pages show. Other parts (page reads, published sites,
 * the app) import from here only.
 */
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
