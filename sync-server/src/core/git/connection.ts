import { randomBytes } from 'node:crypto';
import { notFound } from '@quire/shared/domainErrors';
import type { GitSyncConnection, GitSyncConnectionBody } from '@quire/shared/schemas/git';
import { type GitConnectionRow, deleteGitConnection, getGitConnection, putGitConnection, queueGitSync } from '../../store/gitConnections';
import type { CommandContext } from '../platform/deps';
import { authorizeGit } from '../policies/git';
import { spaceSeenBy } from '../access/resourceAccess';
import { splitCredentials } from './address';
import { sealCredentials, seal } from './credentials';
import { normalizeFolder } from './folder';
import { removeGitStores } from './store';

/*
 * A space connected to one branch (and folder) of one repository: `git/sync`. Connecting
 * queues the first sync, whose side (`firstSync`) wins; after it, merges and quiet-period
 * revisions of main become commits and pushes come back in as merges (`syncRun.ts`).
 */

/** The user name git hosts expect beside a token, when the URL names none. */
const TOKEN_USER = { github: 'x-access-token', gitlab: 'oauth2', generic: 'quire-sync' } as const;

async function editableSpace(ctx: CommandContext, spaceId: string) {
  const { space, role } = await spaceSeenBy(ctx.deps.db, ctx.access, spaceId, 'view');
  authorizeGit('sync', { role, locked: space.edit_mode === 'locked' });
  return space;
}

/**
 * Connects the space (or changes its connection) and queues the first sync. Answers the
 * connection with its webhook secret, which is shown this once.
 */
export async function connectGitSync(
  ctx: CommandContext,
  input: GitSyncConnectionBody & { spaceId: string; baseUrl: string },
): Promise<GitSyncConnection> {
  const { db } = ctx.deps;
  const space = await editableSpace(ctx, input.spaceId);
  const { url, credentials } = splitCredentials(input.url);
  const project = normalizeFolder(input.repoProjectDirectory, 'repoProjectDirectory');
  const password = input.credential ?? credentials?.password;
  const username = credentials?.username || TOKEN_USER[input.provider];
  const hookSecret = randomBytes(24).toString('base64url');
  const row = await db.transaction(async (tx) => {
    const conn = await putGitConnection(tx, {
      space_id: space.id,
      url,
      ref: input.ref,
      repo_project_directory: project || null,
      provider: input.provider,
      credentials: password ? await sealCredentials(tx, { username, password }) : null,
      hook_secret: await seal(tx, hookSecret),
      first_sync: input.firstSync,
      connected_by: ctx.userId,
    });
    await queueGitSync(tx, space.id, { sync: 'pull' });
    return conn;
  });
  return { ...present(row, input.baseUrl), webhookSecret: hookSecret };
}

/** The space's connection, never its credential nor its webhook secret; 404 when it has none. */
export async function gitSyncConnection(ctx: CommandContext, input: { spaceId: string; baseUrl: string }): Promise<GitSyncConnection> {
  const space = await editableSpace(ctx, input.spaceId);
  const row = await getGitConnection(ctx.deps.db, space.id);
  if (!row) throw notFound('git sync connection');
  return present(row, input.baseUrl);
}

/**
 * Disconnects the space: nothing follows the repository any more; the space's content
 * stays, this instance's object stores of it go (other instances' are dropped when they
 * grow past their bound, or stay as caches a later connection fills).
 */
export async function disconnectGitSync(ctx: CommandContext, input: { spaceId: string }): Promise<void> {
  const space = await editableSpace(ctx, input.spaceId);
  await ctx.deps.db.transaction((tx) => deleteGitConnection(tx, space.id));
  await removeGitStores(ctx.deps.config.dataDir, space.id);
}

function present(row: GitConnectionRow, baseUrl: string): GitSyncConnection {
  return {
    object: 'git-sync-connection',
    url: row.url,
    ref: row.ref,
    ...(row.repo_project_directory ? { repoProjectDirectory: row.repo_project_directory } : {}),
    provider: row.provider,
    hasCredential: !!row.credentials,
    firstSync: row.first_sync,
    connectedAt: new Date(row.connected_at).toISOString(),
    ...(row.base_commit ? { commit: row.base_commit } : {}),
    webhookUrl: `${baseUrl}/v1/git/hooks/${row.space_id}`,
    permissions: { edit: true },
    urls: { location: `${baseUrl}/v1/spaces/${row.space_id}/git/sync` },
  };
}
