import type { MoveBody, Space, UpdateSpaceBody } from '@quire/shared';
import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { CreateSpaceBody } from '@quire/shared/schemas/spaceCreate';
import type { Access, OrgAccess } from '../access/callerAccess';
import { orgSeenBy, spaceSeenBy } from '../access/resourceAccess';
import { moveItem } from '../organizations/placement';
import type { CommandContext } from '../platform/deps';
import { spaceUpdateAction, maySpace } from '../policies/spaces';
import { spaceCountsOf } from '../readModel/hotRows';
import { SSO_REQUIRED_MESSAGE } from '../sso/enforcement';
import { presentSpace } from '../views/space';
import { requireCreateIn } from '../collections/rules';
import { initSpaceContent } from '../content/revisions';
import { templatePages, writeTemplate } from '../content/templates';
import { duplicateSpace as copySpace, transferSpace as moveToOrg, updateSpaceSettings } from './rules';
import * as spaces from '../../store/spaces';

/*
 * The writes of the `/v1` space operations, one function each, taking the caller's context
 * and the operation's input and answering the space as the caller now sees it.
 */

/** A space as it is after a write, with its counters, presented to a caller with `access`. */
async function presented(ctx: CommandContext, spaceId: string, access: OrgAccess): Promise<Space> {
  const space = await spaces.getSpace(ctx.deps.db, spaceId, { includeDeleted: true });
  if (!space) throw notFound('space');
  return presentSpace(space, access, ctx.baseUrl, await spaceCountsOf(ctx.deps.db, space.id));
}

/** Access in an organization read again: the write changed roles or grants. */
async function afresh(callerAccess: Access, orgId: string): Promise<OrgAccess> {
  callerAccess.reset(orgId);
  return callerAccess.org(orgId);
}

/**
 * Creates a space at the organization's top level or in a collection (the create role
 * there), with its content started, from a template when one is named. A template that
 * cannot be applied creates nothing.
 */
export async function createSpace(ctx: CommandContext, input: { organizationId: string; fields: CreateSpaceBody }): Promise<Space> {
  const { db } = ctx.deps;
  const { fields } = input;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId);
  await requireCreateIn(db, org, access, fields.parent);
  // Checked before anything is written: a template that cannot be applied creates no space.
  const pages =
    fields.template && (await templatePages(db, org.id, fields.template.id, fields.template.params?.contentRefs ?? {}, 'template.'));
  const spaceId = await db.transaction(async (tx) => {
    const created = await spaces.createSpace(tx, org.id, {
      title: fields.title ?? 'Untitled',
      emoji: fields.emoji,
      parentId: fields.parent,
      language: fields.language,
    });
    await initSpaceContent(tx, created.id);
    if (pages) await writeTemplate(tx, { spaceId: created.id }, pages, ctx.userId);
    // Locked last: a template fills the space before edits are closed.
    if (fields.editMode) await spaces.updateSpace(tx, created.id, { editMode: fields.editMode });
    return created.id;
  });
  return presented(ctx, spaceId, access);
}

/**
 * Moves a space to the trash. One the caller cannot see (or that is gone) answers as
 * deleted; one they see takes the admin role.
 */
export async function deleteSpace(ctx: CommandContext, input: { spaceId: string }): Promise<void> {
  const { db } = ctx.deps;
  const space = await spaces.getSpace(db, input.spaceId);
  if (!space) return;
  const access = await ctx.access.org(space.org_id);
  const role = access.roleOn(space);
  if (!role) return;
  if (access.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  if (!maySpace(role, 'administer', space)) throw forbidden('This needs the admin role on the space.');
  await spaces.softDeleteSpace(db, input.spaceId);
}

/** Changes a space's settings (see `updateSpaceSettings`); they may change who sees it. */
export async function updateSpace(ctx: CommandContext, input: { spaceId: string; changes: UpdateSpaceBody }): Promise<Space> {
  const { space, role } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, spaceUpdateAction(input.changes));
  await updateSpaceSettings(ctx.deps.db, space, role, input.changes);
  return presented(ctx, space.id, await afresh(ctx.access, space.org_id));
}

/** Copies a space beside the original (see `duplicateSpace` in `rules.ts`); answers the copy. */
export async function duplicateSpace(ctx: CommandContext, input: { spaceId: string }): Promise<Space> {
  const { space, access } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'view');
  const copyId = await copySpace(ctx.deps.db, space, access);
  // The copy carries the original's grants, the caller's included.
  return presented(ctx, copyId, await afresh(ctx.access, space.org_id));
}

/** Takes a space out of the trash (a live one is answered as it is). */
export async function restoreSpace(ctx: CommandContext, input: { spaceId: string }): Promise<Space> {
  const { space, access } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'administer', { includeDeleted: true });
  if (space.deleted_at) await spaces.restoreSpace(ctx.deps.db, space.id);
  return presented(ctx, space.id, access);
}

/** Moves a space to another parent or place within its organization (see `moveItem`). */
export async function moveSpace(ctx: CommandContext, input: { spaceId: string; to: MoveBody }): Promise<Space> {
  const { space, access } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'administer');
  await ctx.deps.db.transaction((tx) => moveItem(tx, access, 'space', space, input.to));
  return presented(ctx, space.id, access);
}

/** Moves a space to another organization (see `transferSpace` in `rules.ts`). */
export async function transferSpace(ctx: CommandContext, input: { spaceId: string; organization: string }): Promise<Space> {
  const { space } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'administer');
  await moveToOrg(ctx.deps.db, space, input.organization, await ctx.access.org(input.organization));
  // Grants were dropped on the way: the caller's standing in the target is read afresh.
  ctx.access.reset();
  return presented(ctx, space.id, await ctx.access.org(input.organization));
}
