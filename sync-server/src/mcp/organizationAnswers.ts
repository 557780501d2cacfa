import type { Context } from 'hono';
import { readModelOf, tags } from '../core/readModel/readModel';
import type { AppEnv } from '../web/env';
import { baseUrl } from '../web/baseUrl';
import type { ToolAnswers } from './keptAnswers';

/**
 * Kept answers of `/v1/mcp`, in the read model beside the `/v1` response cache and under its
 * rules: keyed by the caller's token and the public base URL, kept only when the tool said
 * which rows its answer came from (`cacheable`) and none of them changed since the request
 * began (a read racing a write is never kept), dropped exactly when one of them changes, and
 * looked up only after the request was fenced (read your writes across instances). The
 * token is checked, and the rate limits counted, before any lookup: a revoked token or a
 * removed member is refused as on any `/v1` route.
 */
export function organizationAnswers(c: Context<AppEnv>): ToolAnswers | undefined {
  const model = readModelOf(c.get('deps').db);
  const caller = c.get('caller');
  const tokenHash = c.get('tokenHash');
  const since = c.get('readSince');
  if (!caller || !tokenHash || since === undefined || !model.active) return undefined;
  const scope = `mcp\n${tokenHash}\n${baseUrl(c)}\n`;
  return {
    get(key) {
      const hit = model.response(scope + key);
      return hit && { headers: hit.headers, head: hit.body };
    },
    keep(key, answer) {
      const answerTags = c.get('cacheTags');
      if (!answerTags) return;
      model.keepResponse(
        scope + key,
        { status: 200, headers: answer.headers, body: answer.head, tokenId: caller.tokenId, userId: caller.user.id },
        [tags.token(tokenHash), tags.user(caller.user.id), ...answerTags],
        since,
      );
    },
  };
}
