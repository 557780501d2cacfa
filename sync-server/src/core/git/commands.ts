import type { ExportToGitRepositoryBody, ImportGitRepositoryBody } from '@quire/shared/schemas/git';
import { type GitOperationRequest, insertGitOperation } from '../../store/git';
import type { CommandContext } from '../platform/deps';
import { authorizeGit } from '../policies/git';
import { spaceSeenBy } from '../access/resourceAccess';
import { splitCredentials } from './address';
import { sealCredentials } from './credentials';

/*
 * The public client's git operations on a space. Each is queued as a row and answered at
 * once; a runner (`runner.ts`) does the work in the background, and `git/info` tells how it
 * went. The URL's credentials are sealed apart from it until the operation ends.
 */

type Common = Pick<ImportGitRepositoryBody, 'url' | 'ref' | 'repoProjectDirectory' | 'force' | 'standalone' | 'timestamp' | 'gitInfo'>;

async function queue(ctx: CommandContext, spaceId: string, direction: 'import' | 'export', input: Common, extra: GitOperationRequest) {
  const { db } = ctx.deps;
  const { space, role } = await spaceSeenBy(db, ctx.access, spaceId, 'view');
  authorizeGit(direction, { role, locked: space.edit_mode === 'locked', standalone: !!input.standalone });
  const { url, credentials } = splitCredentials(input.url);
  const request: GitOperationRequest = {
    ...extra,
    ...(input.repoProjectDirectory ? { repoProjectDirectory: input.repoProjectDirectory } : {}),
    ...(input.force !== undefined ? { force: input.force } : {}),
    ...(input.standalone !== undefined ? { standalone: input.standalone } : {}),
    ...(input.timestamp ? { timestamp: input.timestamp } : {}),
    ...(input.gitInfo?.provider ? { provider: input.gitInfo.provider } : {}),
    // A tree URL is shown by git/info: it keeps no credentials either.
    ...(input.gitInfo?.url && URL.canParse(input.gitInfo.url) ? { treeUrl: splitCredentials(input.gitInfo.url).url } : {}),
  };
  await insertGitOperation(db, {
    spaceId: space.id,
    direction,
    url,
    ref: input.ref,
    request,
    credentials: await sealCredentials(db, credentials),
    requestedBy: ctx.userId,
  });
}

/**
 * Queues an import of a repository's ref into the space: its main content becomes the
 * repository's folder, or, `standalone`, a new change request holds it for review.
 */
export async function importFromGit(ctx: CommandContext, input: ImportGitRepositoryBody & { spaceId: string }): Promise<void> {
  await queue(ctx, input.spaceId, 'import', input, {});
}

/** Queues an export of the space's main content as one commit on a repository's ref. */
export async function exportToGit(ctx: CommandContext, input: ExportToGitRepositoryBody & { spaceId: string }): Promise<void> {
  await queue(ctx, input.spaceId, 'export', input, { commitMessage: input.commitMessage });
}
