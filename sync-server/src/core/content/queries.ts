import { bodyToGitbookDocument, markdownToBody } from '@quire/shared/content/index';
import type { PageQuery } from '@quire/shared/schemas/content';
import type { SearchQuery } from '@quire/shared/schemas/search';
import { notFound } from '@quire/shared/domainErrors';
import type { z } from 'zod';
import { changeRequestSeenBy, orgSeenBy, spaceSeenBy } from '../access/resourceAccess';
import { computedSpecRef, renderSpecOperations } from '../openapi';
import type { CommandContext } from '../platform/deps';
import { appBase, presentPage, presentPageTree } from '../views/content';
import { presentPageHit, presentSpaceHits } from '../views/search';
import { spaceRevisionId } from './branchOps';
import { crBranch } from './changeRequests';
import { readBody } from './read';
import { contentAtRevision } from './revisions';
import * as search from './searchResults';
import { pagePaths } from './tree';

/*
 * The reads of a space's content that both the `/v1` routes and MCP's tools answer with,
 * one function each, taking the caller's context and the operation's input.
 */

/** Main of a space, or one of its change requests. */
export interface BranchRef {
  spaceId: string;
  changeRequestId?: string;
}

/** The branch a content operation reads or writes, checked for the caller, and its current revision. */
export async function branchSeenBy(ctx: CommandContext, p: BranchRef, action: 'view' | 'edit' = 'view') {
  const { db } = ctx.deps;
  if (p.changeRequestId) {
    const found = await changeRequestSeenBy(db, ctx.access, p.spaceId, p.changeRequestId, action);
    return { ...found, branch: crBranch(found.cr), revisionId: found.cr.revision_id };
  }
  const found = await spaceSeenBy(db, ctx.access, p.spaceId, action);
  const revisionId = await spaceRevisionId(db, found.space);
  return { ...found, cr: undefined, branch: { spaceId: found.space.id }, revisionId };
}

/** The page tree of main or of a change request (`GET .../content/pages`). */
export async function pageTree(ctx: CommandContext, input: BranchRef & { metadata?: boolean }) {
  const branch = await branchSeenBy(ctx, input);
  const content = await contentAtRevision(ctx.deps.db, branch.revisionId);
  const app = appBase(ctx.baseUrl, branch.space.id, branch.cr?.id);
  return { pages: presentPageTree(content, app, input.metadata !== false) };
}

/** A page of main or of a change request, with its body as a document or markdown (`GET .../content/page/{pageId}`). */
export async function readPage(ctx: CommandContext, input: BranchRef & { pageId: string } & z.output<typeof PageQuery>) {
  const { db } = ctx.deps;
  const branch = await branchSeenBy(ctx, input);
  const content = await contentAtRevision(db, branch.revisionId);
  const entry = content.pages[input.pageId];
  if (!entry) throw notFound('page');
  const format = input.format ?? 'document';
  const evaluated = input.evaluated === 'true' || input.evaluated === 'deterministic-only';
  const refs = input['format.markdown.refs'] === 'relative' ? 'relative' : 'stable';
  let body = await readBody(db, branch.revisionId, input.pageId, { format, evaluated, refs });
  const spec = computedSpecRef(entry.computed);
  if (spec && input.computed !== false) {
    const rendered = await renderSpecOperations(db, branch.space.org_id, spec);
    if (rendered) body = format === 'markdown' ? rendered.markdown : bodyToGitbookDocument(markdownToBody(rendered.markdown).doc);
  }
  const app = appBase(ctx.baseUrl, branch.space.id, branch.cr?.id);
  const shown = presentPage({ ...entry, path: pagePaths(content).get(entry.id) ?? entry.slug }, app, false, input.metadata !== false);
  return format === 'markdown' ? { ...shown, markdown: body as string } : { ...shown, document: body };
}

type Search = z.output<typeof SearchQuery>;

/** Pages of a space matching a query (`GET /v1/spaces/{id}/search`). */
export async function searchSpace(ctx: CommandContext, input: { spaceId: string } & Search) {
  const { space } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'view');
  const found = await search.searchSpace(ctx.deps.db, space, input);
  const items = found.rows.map((h) => presentPageHit(h, found.rankOf.get(h.pageId) ?? 0, found.info.get(h.pageId), ctx.baseUrl));
  return { items, count: found.count, ...(found.next ? { next: { page: found.next } } : {}) };
}

/** Spaces of an organization with their matching pages, as far as the caller may see (`GET /v1/orgs/{id}/search`). */
export async function searchOrganization(ctx: CommandContext, input: { organizationId: string } & Search) {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId);
  const found = await search.searchOrganization(ctx.deps.db, org, access, input);
  const items = found.rows.map((s) => presentSpaceHits(s, ctx.baseUrl));
  return { items, count: found.count, ...(found.next ? { next: { page: found.next } } : {}) };
}
