import { createRoute } from '@hono/zod-openapi';
import { ErrorBodySchema } from '@quire/shared';
import { GitSyncConnectionBody, GitSyncConnectionSchema } from '@quire/shared/schemas/git';
import { apiRoute, body, json } from '../openapi';
import { SpaceParams } from '../params';

const tags = ['Git sync'];
const SYNC = '/v1/spaces/{spaceId}/git/sync';
const extension = (description: string) => ({ description, 'x-quire-extension': true });

export const connectGitSync = apiRoute({
  method: 'put',
  path: SYNC,
  tags,
  summary: 'Connect the space to a branch of a repository (two-way sync)',
  ...extension(
    'From then on every merge into main and every quiet-period revision of live edits becomes a commit on the branch, and every push to the branch (announced by the webhook at `webhookUrl`, or seen by polling, `GIT_POLL_SECONDS`) is merged into main as the difference from the last synced commit, so both sides keep their edits. The first sync keeps the side `firstSync` names. The credential (a token) is stored sealed and never shown again; the answer carries the webhook secret, this once. Connecting again replaces the connection and starts over with a first sync. Needs the edit role.',
  ),
  request: { params: SpaceParams, body: body(GitSyncConnectionBody) },
  responses: { 200: json(GitSyncConnectionSchema) },
});

export const getGitSync = apiRoute({
  method: 'get',
  path: SYNC,
  tags,
  summary: "The space's connection to a repository",
  ...extension('404 when the space is not connected. Never shows the credential nor the webhook secret. Needs the edit role.'),
  request: { params: SpaceParams },
  responses: { 200: json(GitSyncConnectionSchema) },
});

export const disconnectGitSync = apiRoute({
  method: 'delete',
  path: SYNC,
  tags,
  summary: 'Disconnect the space from its repository',
  ...extension('The content stays as it is; nothing follows the repository any more. Needs the edit role.'),
  request: { params: SpaceParams },
  responses: { 204: { description: 'Disconnected (or was not connected)' } },
});

const error = (description: string) => ({ content: { 'application/json': { schema: ErrorBodySchema } }, description });

/** The providers' push webhooks: no API token, the delivery proves the connection's secret instead. */
export const receiveGitHook = createRoute({
  method: 'post',
  path: '/v1/git/hooks/{spaceId}',
  tags,
  summary: "A git host's push webhook for a connected space",
  description:
    "Point the repository's push webhook here (the connection's `webhookUrl`), with its secret: GitHub signs deliveries with it (`X-Hub-Signature-256`), GitLab sends it as `X-Gitlab-Token`, any other server as `X-Quire-Hook-Secret` (or a GitHub-style signature). Answers 202 and merges the push in the background.",
  'x-quire-extension': true,
  request: { params: SpaceParams },
  security: [],
  responses: {
    202: { description: 'The sync is queued' },
    400: error('Bad input.'),
    401: error('The delivery does not prove the connection secret.'),
    404: error('No connected space with this id.'),
  },
});
