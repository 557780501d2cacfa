import type { ContentRef } from '@quire/shared/schemas/content';
import type { CommandContext } from '../platform/deps';
import { applyTemplateAs, importAs, uploadFileAs } from './branchOps';
import type { LinkBase } from './exports';
import { type BranchRef, branchSeenBy } from './queries';

/*
 * The writes to a branch's content (main or a change request) the `/v1` content routes
 * call, taking the caller's context and the operation's input: each needs the edit role on
 * the branch.
 */

/** Stores a file's bytes (read once the caller may write); answers it with its download link, and whether it is new. */
export async function uploadFile(
  ctx: CommandContext,
  input: BranchRef & { links: LinkBase; fileId: string; name: string; contentType: string; bytes: () => Promise<Uint8Array> },
) {
  const branch = await branchSeenBy(ctx, input, 'edit');
  const stored = await uploadFileAs(ctx.deps.db, input.links, branch, {
    id: input.fileId,
    name: input.name,
    contentType: input.contentType,
    bytes: await input.bytes(),
  });
  return {
    file: { id: input.fileId, name: input.name, contentType: input.contentType, size: stored.size, downloadURL: stored.downloadURL },
    created: stored.created,
  };
}

/** Imports content (a URL, an archive, markdown) into the branch. */
export async function importContent(ctx: CommandContext, input: BranchRef & { request: Parameters<typeof importAs>[2] }) {
  const branch = await branchSeenBy(ctx, input, 'edit');
  return importAs(ctx.deps, branch, input.request, ctx.userId);
}

/** Fills main, or the change request named, from a template. */
export async function applyTemplate(
  ctx: CommandContext,
  input: BranchRef & { templateId: string; contentRefs: Record<string, ContentRef> },
): Promise<void> {
  const branch = await branchSeenBy(ctx, input, 'edit');
  await applyTemplateAs(ctx.deps.db, branch, input.templateId, input.contentRefs, ctx.userId);
}
