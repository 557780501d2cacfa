import { verify } from '@octokit/webhooks-methods';
import { notFound, unauthorized } from '@quire/shared/domainErrors';
import { getGitConnection, queueGitSync } from '../../store/gitConnections';
import type { PublicContext } from '../platform/deps';
import { sameSecret } from '../security/secrets';
import { unseal } from './credentials';
import { resolveRef } from './importRun';

/** A provider's webhook delivery as it arrived: the headers that prove it, and the raw body they sign. */
export interface GitHookDelivery {
  spaceId: string;
  /** `X-Hub-Signature-256` (GitHub, and Gitea or Forgejo for a generic server). */
  signature?: string;
  /** `X-Gitlab-Token` (GitLab). */
  gitlabToken?: string;
  /** `X-Quire-Hook-Secret` (any other server that can send a fixed header). */
  secret?: string;
  body: string;
}

/**
 * A push announced by the repository's host: verified with the connection's secret (GitHub
 * signs the body with it, GitLab and other servers send it), then a sync is queued, to run
 * in the background (one per space at a time, across instances). A space with no connection
 * is unknown (404) whoever asks; a delivery that does not prove the secret is refused (401)
 * and queues nothing. A push to another branch is acknowledged and ignored.
 */
export async function receiveGitHook(ctx: PublicContext, d: GitHookDelivery): Promise<void> {
  const { db } = ctx.deps;
  const conn = await getGitConnection(db, d.spaceId);
  if (!conn) throw notFound('git sync connection');
  const secret = await unseal(db, conn.hook_secret);
  let proven = false;
  if (d.signature && (conn.provider === 'github' || conn.provider === 'generic')) {
    proven = await verify(secret, d.body, d.signature).catch(() => false);
  } else if (d.gitlabToken && conn.provider === 'gitlab') {
    proven = sameSecret(d.gitlabToken, secret);
  } else if (d.secret && conn.provider === 'generic') {
    proven = sameSecret(d.secret, secret);
  }
  if (!proven) throw unauthorized('The webhook delivery is not signed with the connection secret.');
  const pushed = pushedRef(d.body);
  if (pushed && !resolveRef(new Map([[pushed, '']]), conn.ref)) return;
  await db.transaction((tx) => queueGitSync(tx, conn.space_id, { sync: 'pull' }));
}

/** The `ref` a push event names (GitHub, GitLab and Gitea all send it), when the body says. */
function pushedRef(body: string): string | undefined {
  try {
    const ref = (JSON.parse(body) as { ref?: unknown }).ref;
    return typeof ref === 'string' && ref.startsWith('refs/') ? ref : undefined;
  } catch {
    return undefined;
  }
}
