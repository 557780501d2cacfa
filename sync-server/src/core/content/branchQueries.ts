import { badRequest, notFound } from '@quire/shared/domainErrors';
import { spaceSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { presentFiles, presentRevision } from '../views/content';
import { presentOrg } from '../views/organization';
import { presentSpace } from '../views/space';
import { spacePdfUrl } from './branchOps';
import { downloadLinks, readRevision } from './downloadLinks';
import { ARCHIVE_TYPES, type ArchiveFormat, exportRevisionArchive } from './export';
import type { LinkBase } from './exports';
import { type LinkScope, backlinkItems, linkItems, linkStats } from './linkItems';
import { linkContextOf } from './linkContext';
import { memoryPage } from './memoryPage';
import { type BranchRef, branchSeenBy } from './queries';
import { contentAtRevision } from './revisions';
import type { PageRequest } from '../../store/paginate';

/*
 * The reads of a branch's content (main or a change request) beside the page tree and a
 * page (queries.ts): the revision, files, links and backlinks, an export, a PDF link.
 * `links` says where signed download links point and whom they are handed to.
 */

type Links = { links: LinkBase };
type Listing = PageRequest & { metadata?: boolean };

const fileKey = (f: { id: string; name: string }) => `${f.name}\u0000${f.id}`;

async function linkScope(ctx: CommandContext, input: BranchRef & Links): Promise<LinkScope> {
  const branch = await branchSeenBy(ctx, input);
  const { db } = ctx.deps;
  const { org, counts, content, mainBase } = await linkContextOf(db, branch.space, branch.revisionId, branch.cr);
  return {
    db,
    links: input.links,
    revisionId: branch.revisionId,
    content,
    organization: presentOrg(org, branch.access, ctx.baseUrl),
    space: presentSpace(branch.space, branch.access, ctx.baseUrl, counts as never),
    mainBase,
  };
}

function listed<T>(page: { rows: { item: T }[]; count: number; next?: string }) {
  return { items: page.rows.map((i) => i.item) as never[], count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

export async function getContent(ctx: CommandContext, input: BranchRef & Links & { metadata?: boolean }) {
  const branch = await branchSeenBy(ctx, input);
  const read = await readRevision(ctx.deps.db, input.links, branch.revisionId);
  if (!read) throw notFound('revision');
  return presentRevision(ctx.baseUrl, read, { metadata: input.metadata !== false });
}

export async function listFiles(ctx: CommandContext, input: BranchRef & Links & { query: Listing }) {
  const { db } = ctx.deps;
  const branch = await branchSeenBy(ctx, input);
  const content = await contentAtRevision(db, branch.revisionId);
  const page = memoryPage(Object.values(content.files), fileKey, input.query);
  const items = presentFiles(page.rows, await downloadLinks(db, input.links, branch.space.id, page.rows), input.query.metadata !== false);
  return { items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

export async function getFile(ctx: CommandContext, input: BranchRef & Links & { fileId: string; metadata?: boolean }) {
  const { db } = ctx.deps;
  const branch = await branchSeenBy(ctx, input);
  const file = (await contentAtRevision(db, branch.revisionId)).files[input.fileId];
  if (!file) throw notFound('file');
  const [shown] = presentFiles([file], await downloadLinks(db, input.links, branch.space.id, [file]), input.metadata !== false);
  return shown as NonNullable<typeof shown>;
}

export async function fileBacklinks(ctx: CommandContext, input: BranchRef & Links & { fileId: string; page: PageRequest }) {
  const scope = await linkScope(ctx, input);
  if (!scope.content.files[input.fileId]) throw notFound('file');
  return listed(memoryPage(backlinkItems(scope, { fileId: input.fileId }), (i) => i.key, input.page));
}

export async function pageBacklinks(ctx: CommandContext, input: BranchRef & Links & { pageId: string; page: PageRequest }) {
  const scope = await linkScope(ctx, input);
  if (!scope.content.pages[input.pageId]) throw notFound('page');
  return listed(memoryPage(backlinkItems(scope, { pageId: input.pageId }), (i) => i.key, input.page));
}

/** The links of one page (`pageId`) or of every page of the branch, with their counts by status. */
export async function listLinks(ctx: CommandContext, input: BranchRef & Links & { pageId?: string; page: PageRequest }) {
  const scope = await linkScope(ctx, input);
  if (input.pageId !== undefined && !scope.content.pages[input.pageId]) throw notFound('page');
  const all = await linkItems(scope, input.pageId !== undefined ? [input.pageId] : Object.keys(scope.content.pages));
  return { ...listed(memoryPage(all, (i) => i.key, input.page)), stats: await linkStats(scope, all) };
}

/** The branch's content as an archive, with the name and type it is downloaded under. */
export async function exportContent(ctx: CommandContext, input: BranchRef & { archive: ArchiveFormat }) {
  const branch = await branchSeenBy(ctx, input);
  const bytes = await exportRevisionArchive(ctx.deps.db, branch.space.id, branch.revisionId, input.archive);
  const name = `${branch.cr ? `${branch.space.id}-cr-${branch.cr.number}` : branch.space.id}.${input.archive}`;
  return { bytes, name, contentType: ARCHIVE_TYPES[input.archive] };
}

/** A signed link to the PDF of a space's content, or of one page of it. */
export async function spacePdf(ctx: CommandContext, input: { spaceId: string } & Links & { query: { page?: string; only?: boolean } }) {
  if (input.query.only && !input.query.page) throw badRequest('Missing query parameter field "page": required when "only" is true.');
  const { space } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'view');
  return { url: await spacePdfUrl(ctx.deps.db, input.links, space, input.query) };
}
