import { notFound } from '@quire/shared/domainErrors';
import type { GitSyncState } from '@quire/shared/schemas/git';
import { lastGitOperation } from '../../store/git';
import type { CommandContext } from '../platform/deps';
import { authorizeGit } from '../policies/git';
import { spaceSeenBy } from '../access/resourceAccess';
import { providerOf, repoNameOf } from './address';

/**
 * The space's git sync as the public client reads it: the repository of the last
 * operation (its address never with credentials) and how that operation went. A space no
 * operation was asked of has none (404).
 */
export async function gitInfo(ctx: CommandContext, input: { spaceId: string }): Promise<GitSyncState> {
  const { db, config } = ctx.deps;
  const { space, role } = await spaceSeenBy(db, ctx.access, input.spaceId, 'view');
  authorizeGit('info', { role, locked: space.edit_mode === 'locked' });
  const op = await lastGitOperation(db, space.id);
  if (!op) throw notFound('git sync');
  const repoName = repoNameOf(op.url);
  return {
    ...(repoName ? { repoName } : {}),
    installationStatus: 'active',
    installationProvider: op.request.provider ?? providerOf(op.url),
    installationId: space.id,
    url: op.request.treeUrl ?? op.url,
    ref: op.ref,
    ...(op.request.repoProjectDirectory ? { repoProjectDirectory: op.request.repoProjectDirectory } : {}),
    operation: {
      // Queued is running as the public client sees it: asked for, not over.
      state: op.state === 'queued' ? 'running' : op.state,
      direction: op.direction,
      startedAt: new Date(op.started_at ?? op.requested_at).toISOString(),
      ...(op.ended_at ? { endedAt: new Date(op.ended_at).toISOString() } : {}),
      ...(op.error ? { error: op.error } : {}),
      ...(op.commit_oid ? { commit: op.commit_oid } : {}),
      ...(op.change_request_id ? { changeRequest: op.change_request_id } : {}),
    },
    operationTimeout: config.git.timeoutMs,
    updatedAt: new Date(op.ended_at ?? op.started_at ?? op.requested_at).toISOString(),
  };
}
