import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GitBookAPI, GitSyncOperationDirection, GitSyncOperationState, type GitSyncState } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handWrittenRepository } from '../../sync-server/src/testing/docsRepository';
import { GitServer } from '../../sync-server/src/testing/gitServer';
import { LiveServer, waitFor } from '../../sync-server/src/testing/syncClients';
import { clientFor, refusal } from './clientHarness';

/**
 * Git import, export and state, driven through the public client of this API family
 * (`@gitbook/api`) unchanged, against a live server and git's own `git http-backend`.
 */

let s: LiveServer;
let g: GitServer;
let api: GitBookAPI;
let reader: GitBookAPI;
let orgId: string;
let dataDir: string;

beforeAll(async () => {
  g = await GitServer.start();
  g.createRepository('handbook', handWrittenRepository());
  g.createBare('published');
  dataDir = mkdtempSync(join(tmpdir(), 'quire-git-client-'));
  // The git server is on loopback: the fetch guard lets it through only when told to.
  s = await LiveServer.start({ allowPrivateFetch: true, dataDir });
  const fixture = await s.t.org(['read']);
  orgId = fixture.orgId;
  api = clientFor(s, fixture.admin.token);
  reader = clientFor(s, fixture.members[0]!.token);
});
afterAll(async () => {
  await s?.close();
  await g?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The state once the last operation is over (the server runs it in the background). */
async function settled(spaceId: string): Promise<GitSyncState> {
  let state: GitSyncState | undefined;
  await waitFor(
    async () => {
      state = (await api.spaces.getSpaceGitInfo(spaceId)).data;
      return state.operation?.state !== GitSyncOperationState.Running;
    },
    'the git operation to end',
    60_000,
  );
  return state as GitSyncState;
}

describe('git sync through the public client', { timeout: 120_000 }, () => {
  it('imports a repository, exports it as one commit, and reports each operation', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Handbook' });
    expect(await refusal(api.spaces.getSpaceGitInfo(space.id))).toEqual({ code: 404, message: 'No matching git sync found.' });

    const imported = await api.spaces.importGitRepository(space.id, { url: g.url('handbook'), ref: 'refs/heads/main' });
    expect(imported.status).toBe(204);
    const afterImport = await settled(space.id);
    expect(afterImport.operation).toMatchObject({ state: GitSyncOperationState.Success, direction: GitSyncOperationDirection.Import });
    expect(afterImport.url).toBe(`${g.origin}/handbook.git`);
    expect(JSON.stringify(afterImport)).not.toContain(g.password);
    const { data: tree } = await api.spaces.listPages(space.id);
    expect(tree.pages.map((p) => p.title)).toEqual(['Introduction', 'Get Started', 'Git Sync & Backups', 'Status page']);

    const exported = await api.spaces.exportToGitRepository(space.id, {
      url: g.url('published'),
      ref: 'refs/heads/main',
      commitMessage: 'Publish the handbook',
    });
    expect(exported.status).toBe(204);
    const afterExport = await settled(space.id);
    expect(afterExport.operation).toMatchObject({ state: GitSyncOperationState.Success, direction: GitSyncOperationDirection.Export });
    expect(g.log('published').map((c) => [c.subject, c.committer])).toEqual([['Publish the handbook', 'Quire <quire@quire.test>']]);

    // Readers see the state; they may not start an operation.
    expect((await reader.spaces.getSpaceGitInfo(space.id)).data.operation?.direction).toBe(GitSyncOperationDirection.Export);
    expect(await refusal(reader.spaces.importGitRepository(space.id, { url: g.url('handbook'), ref: 'main' }))).toEqual({
      code: 403,
      message: 'This needs the edit role on the space.',
    });
  });

  it('a wrong password: the state says authentication failed, with no credentials in it', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Locked out' });
    await api.spaces.importGitRepository(space.id, { url: g.url('handbook', { user: g.user, password: 'not-the-token' }), ref: 'main' });
    const state = await settled(space.id);
    expect(state.operation).toMatchObject({
      state: GitSyncOperationState.Failure,
      error: `authentication failed for ${g.origin}/handbook.git`,
    });
    expect(JSON.stringify(state)).not.toMatch(/not-the-token|s3cret-token|@127\.0\.0\.1/);
  });

  it('a standalone import opens a change request', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Reviewed' });
    await api.spaces.importGitRepository(space.id, { url: g.url('handbook'), ref: 'main', standalone: true });
    await settled(space.id);
    const { data: crs } = await api.spaces.listChangeRequestsForSpace(space.id);
    expect(crs.items.map((cr) => cr.subject)).toEqual(['Import from main']);
    expect((await api.spaces.listPages(space.id)).data.pages).toEqual([]);
  });
});
