import { z } from 'zod';
import { Timestamp, text } from './common';

/**
 * A repository's URL as the public client sends it: http(s), possibly with basic auth
 * credentials (`https://user:token@host/org/repo.git`), which are used for the operation
 * and never shown or logged.
 */
const RepositoryUrl = z
  .string()
  .max(2048)
  .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), 'must be an http or https URL');

/** `refs/heads/main`, or a branch name alone (`main`). */
const GitRef = text(256, 1).refine((s) => !/[\s~^:?*[\\]|\.\.|@\{/.test(s), 'must be a git ref such as "refs/heads/main"');

/** A folder of the repository, from its root (`docs`, `packages/site/docs`); no `..`. */
const ProjectDirectory = text(512)
  .refine((s) => !s.split('/').includes('..'), 'must be a folder inside the repository')
  .optional();

/** What the public client may send about the provider; kept only as the tree URL shown by `git/info`. */
const GitInfo = z
  .strictObject({
    provider: z.enum(['github', 'gitlab']).optional(),
    url: z.string().max(2048).optional(),
  })
  .optional();

/** Fields both operations accept from the public client (some only for compatibility). */
const common = {
  url: RepositoryUrl,
  ref: GitRef,
  repoCacheID: text(256).optional(),
  repoTreeURL: z.string().max(2048).optional(),
  repoCommitURL: z.string().max(2048).optional(),
  repoProjectDirectory: ProjectDirectory,
  timestamp: Timestamp.optional(),
  force: z.boolean().optional(),
  standalone: z.boolean().optional(),
  gitInfo: GitInfo,
};

export const ImportGitRepositoryBody = z.strictObject(common).meta({ id: 'ImportGitRepository' });
export type ImportGitRepositoryBody = z.infer<typeof ImportGitRepositoryBody>;

export const ExportToGitRepositoryBody = z
  .strictObject({ ...common, commitMessage: text(10_000, 1) })
  .meta({ id: 'ExportToGitRepository' });
export type ExportToGitRepositoryBody = z.infer<typeof ExportToGitRepositoryBody>;

/** `running` until the operation is over (queued included), then how it ended. */
const GitOperationStateSchema = z.enum(['running', 'failure', 'success', 'timeout']).meta({ id: 'GitSyncOperationState' });

const GIT_DIRECTIONS = ['import', 'export'] as const;

/** The host the repository lives on, guessed from its address; `generic` for any other git server. */
export const GIT_PROVIDERS = ['github', 'gitlab', 'generic'] as const;
export type GitProvider = (typeof GIT_PROVIDERS)[number];

export const GitSyncStateSchema = z
  .object({
    /** `owner/name`, from the repository's address. */
    repoName: z.string().optional(),
    installationStatus: z.enum(['active', 'unauthenticated']),
    installationProvider: z.enum(GIT_PROVIDERS),
    installationId: z.string(),
    /** The repository's address without credentials (or the tree URL the client gave in `gitInfo`). */
    url: z.string().optional(),
    /** Extension: the ref and folder of the last operation. */
    ref: z.string().optional(),
    repoProjectDirectory: z.string().optional(),
    operation: z
      .object({
        state: GitOperationStateSchema,
        direction: z.enum(GIT_DIRECTIONS),
        startedAt: Timestamp,
        endedAt: Timestamp.optional(),
        /** Why the operation failed, worded for a person to act on; never carries credentials. */
        error: z.string().optional(),
        /** Extension: the commit read (import) or written (export); absent when an export changed nothing. */
        commit: z.string().optional(),
        /** Extension: the change request a standalone import opened. */
        changeRequest: z.string().optional(),
      })
      .optional(),
    /** How long an operation may run before it is stopped (`GIT_TIMEOUT_MS`). */
    operationTimeout: z.number().int(),
    updatedAt: Timestamp.optional(),
  })
  .meta({ id: 'GitSyncState' });
export type GitSyncState = z.infer<typeof GitSyncStateSchema>;

/** Which side's content the first sync of a new connection keeps: the space's (`quire`) or the branch's (`git`). */
export const GIT_FIRST_SYNC = ['quire', 'git'] as const;

/** `PUT /v1/spaces/{spaceId}/git/sync`: connects the space to a branch (and folder) of a repository. */
export const GitSyncConnectionBody = z
  .strictObject({
    /** The repository; a user name in it (`https://user@host/…`) is kept for the credential, a password is taken as the credential. */
    url: RepositoryUrl,
    ref: GitRef,
    repoProjectDirectory: ProjectDirectory,
    provider: z.enum(GIT_PROVIDERS),
    /** A token with read and write access to the repository; stored sealed, never shown again. */
    credential: text(4096, 1).optional(),
    firstSync: z.enum(GIT_FIRST_SYNC),
  })
  .meta({ id: 'GitSyncConnectionInput' });
export type GitSyncConnectionBody = z.infer<typeof GitSyncConnectionBody>;

export const GitSyncConnectionSchema = z
  .object({
    object: z.literal('git-sync-connection'),
    /** The repository's address, never with credentials. */
    url: z.string(),
    ref: z.string(),
    repoProjectDirectory: z.string().optional(),
    provider: z.enum(GIT_PROVIDERS),
    hasCredential: z.boolean(),
    firstSync: z.enum(GIT_FIRST_SYNC),
    connectedAt: Timestamp,
    /** The last commit both sides agree on; absent until the first sync. */
    commit: z.string().optional(),
    /** Where the provider's webhook posts pushes (`POST /v1/git/hooks/{spaceId}`). */
    webhookUrl: z.string(),
    /**
     * The webhook's secret: GitHub signs with it (`X-Hub-Signature-256`), GitLab and other
     * servers send it (`X-Gitlab-Token`, `X-Quire-Hook-Secret`). Only in the answer of the PUT.
     */
    webhookSecret: z.string().optional(),
    /** Only editors of the space see the connection, and they may change or end it. */
    permissions: z.object({ edit: z.boolean() }),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'GitSyncConnection' });
export type GitSyncConnection = z.infer<typeof GitSyncConnectionSchema>;
