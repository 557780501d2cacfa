import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import type { LiveServer } from '../../sync-server/src/testing/syncClients';

/** The public client of this API family, pointed at a live test server by its endpoint alone. */
export function clientFor(s: LiveServer, token?: string): GitBookAPI {
  return new GitBookAPI({ endpoint: `http://127.0.0.1:${s.running.port}`, authToken: token });
}

/** The status and message of a refused call, as the client reports them. */
export async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (err) {
    if (err instanceof GitBookAPIError) return { code: err.code, message: err.errorMessage };
    throw err;
  }
  throw new Error('the call succeeded');
}

/** A new space filled from the built-in getting-started template (Welcome, Quickstart, FAQ). */
export async function templatedSpace(api: GitBookAPI, orgId: string, title: string) {
  const { data: space } = await api.orgs.createSpace(orgId, { title });
  await api.spaces.applyTemplateToSpace(space.id, { id: 'getting-started' });
  return space;
}
