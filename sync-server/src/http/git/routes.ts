import { ExportToGitRepositoryBody, GitSyncStateSchema, ImportGitRepositoryBody } from '@quire/shared/schemas/git';
import { apiRoute, body, json } from '../openapi';
import { SpaceParams } from '../params';

const tags = ['Git sync'];
const GIT = '/v1/spaces/{spaceId}/git';

/** The public client's three git operations: beside the specification, with its names and bodies. */
const extension = (description: string) => ({ description, 'x-quire-extension': true });

export const importGitRepository = apiRoute({
  method: 'post',
  path: `${GIT}/import`,
  tags,
  summary: 'Import a git repository into the space',
  ...extension(
    'Runs in the background after the 204: the ref (`refs/heads/main`, or a branch name) is fetched over smart HTTP, and the folder `repoProjectDirectory` (honouring its `.gitbook.yaml`: `root`, `structure.readme`, `structure.summary`) replaces the main content, as the markdown import reads a folder. `standalone: true` opens a change request holding it instead. Credentials in the URL (`https://user:token@host/…`) are used for this operation only and never shown. Needs the edit role; `git/info` tells how it went. `force`, `timestamp` and the deprecated `repoCacheID`, `repoTreeURL` and `repoCommitURL` are accepted as the public client sends them and change nothing: an import always makes the content match the repository.',
  ),
  request: { params: SpaceParams, body: body(ImportGitRepositoryBody) },
  responses: { 204: { description: 'The import is queued' } },
});

export const exportToGitRepository = apiRoute({
  method: 'post',
  path: `${GIT}/export`,
  tags,
  summary: "Export the space's content to a git repository",
  ...extension(
    'Runs in the background after the 204: the main content, as the folder the markdown import reads, is written into `repoProjectDirectory` of the ref as one commit with `commitMessage` (committed by Quire, authored by the caller) and pushed. Unchanged files keep their blobs; an export that changes nothing makes no commit. A push refused because the ref moved is fetched and built again; it is forced only with `force: true`. Needs the edit role; `git/info` tells how it went. `standalone`, `timestamp` and the deprecated `repoCacheID`, `repoTreeURL` and `repoCommitURL` are accepted and change nothing.',
  ),
  request: { params: SpaceParams, body: body(ExportToGitRepositoryBody) },
  responses: { 204: { description: 'The export is queued' } },
});

export const getSpaceGitInfo = apiRoute({
  method: 'get',
  path: `${GIT}/info`,
  tags,
  summary: "The space's git sync: its repository and the last operation",
  ...extension(
    '404 until an import or export was asked for. `operation.error` says why the last one failed, in words a person can act on; no address shown carries credentials.',
  ),
  request: { params: SpaceParams },
  responses: { 200: json(GitSyncStateSchema) },
});
