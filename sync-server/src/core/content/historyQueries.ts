import type { RevisionPageQuery } from '@quire/shared/schemas/pageHistory';
import type { z } from 'zod';
import { spaceSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { appBase, presentPage } from '../views/content';
import { envelope } from '../views/listing';
import { presentPageRevision, presentRevisionPage, presentRevisionState } from '../views/pageHistory';
import { mainRevisionStateOf, pageRevisionsOf, revisionPageOf } from './history';
import { pagePaths } from './tree';
import type { PageRequest } from '../../store/paginate';

/*
 * A page's history, as the `/v1` extension routes answer it: the revisions of a space's
 * main content that changed a page, a page as it was in a revision, a revision's Yjs state.
 * Whoever may see the space reads them.
 */

export async function listPageRevisions(ctx: CommandContext, input: { spaceId: string; pageId: string; page: PageRequest }) {
  const { space } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'view');
  const page = await pageRevisionsOf(ctx.deps.db, space, input.pageId, input.page);
  const base = `${ctx.baseUrl}/v1/spaces/${space.id}/revisions`;
  return envelope(page, (r) => presentPageRevision(r, base, input.pageId));
}

export async function getRevisionPage(
  ctx: CommandContext,
  input: { spaceId: string; revisionId: string; pageId: string; format?: z.output<typeof RevisionPageQuery>['format'] },
) {
  const format = input.format ?? 'document';
  const { space } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'view');
  const { head, content, entry, body, read } = await revisionPageOf(ctx.deps.db, space, input.revisionId, input.pageId, format);
  const shown = presentPage(
    { ...entry, path: pagePaths(content).get(entry.id) ?? entry.slug },
    appBase(ctx.baseUrl, space.id, head.change_request_id),
    false,
  );
  const location = `${ctx.baseUrl}/v1/spaces/${space.id}/revisions/${head.id}/page/${input.pageId}${format === 'document' ? '' : `?format=${format}`}`;
  return presentRevisionPage({ revision: head.id, shown, format, read, body, location });
}

export async function getRevisionState(ctx: CommandContext, input: { spaceId: string; revisionId: string }) {
  const { space } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'view');
  const { head, state } = await mainRevisionStateOf(ctx.deps.db, space, input.revisionId);
  return presentRevisionState(head.id, state, `${ctx.baseUrl}/v1/spaces/${space.id}/revisions/${head.id}/state`);
}
