import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Role } from '@quire/shared';
import { loadOrgAccess } from '../../core/access';
import type { OrgAccess } from '../../core/access';
import { countAdmins, getMemberView, listMembers, lockMembership, markSsoMember, removeMember, setMemberRole } from '../../store/members';
import { listSpaces } from '../../store/spaces';
import { visibleSpaceIds } from '../../core/visibleSpaces';
import { spaceCounts } from '../../store/spaceCounts';
import { listTeamsOfUser } from '../../store/teams';
import { conflict, forbidden, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../listing';
import { presentMember } from '../presenters/member';
import { presentSpace } from '../presenters/space';
import { presentTeam } from '../presenters/team';
import { baseUrl } from '../urls';
import * as r from './routes';
import { cacheable } from '../responseCache';
import { tags } from '../../core/readModel';

/**
 * Guests see their own membership only: the member list is for the organization's members,
 * as the `listMembers` permission of the Organization says.
 */
function requireSeesMember(access: OrgAccess, callerId: string, userId?: string) {
  if (access.orgRole === null && userId !== callerId) throw forbidden('Guests can only see their own membership.');
}

export function registerMembers(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listMembers, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    requireSeesMember(access, c.get('caller').user.id);
    const q = c.req.valid('query');
    const page = await listMembers(c.get('deps').db, org.id, q, q);
    const base = baseUrl(c);
    cacheable(c, [tags.org(org.id), tags.access(org.id), tags.memberUsers(org.id), tags.spacesOf(org.id)]);
    return c.json(
      envelope(page, (m) => presentMember(m, base, access)),
      200,
    );
  });

  app.openapi(r.getMember, async (c) => {
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    requireSeesMember(access, c.get('caller').user.id, userId);
    const m = await getMemberView(c.get('deps').db, organizationId, userId);
    if (!m) throw notFound('member');
    return c.json(presentMember(m, baseUrl(c), access), 200);
  });

  app.openapi(r.deleteMember, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    const self = userId === c.get('caller').user.id;
    // Members may leave on their own; removing others takes an admin.
    if (!self && !access.isAdmin) throw forbidden('Only an admin can remove another member.');
    await db.transaction(async (tx) => {
      await lockMembership(tx, organizationId);
      const m = await getMemberView(tx, organizationId, userId);
      if (!m) return;
      if (m.role === 'admin' && !m.disabled && (await countAdmins(tx, organizationId)) <= 1) {
        throw conflict('The last admin of an organization cannot be removed; make another member admin first.');
      }
      await removeMember(tx, organizationId, userId);
    });
    return c.body(null, 204);
  });

  app.openapi(r.updateMember, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'admin');
    const { role } = c.req.valid('json');
    await db.transaction(async (tx) => {
      await lockMembership(tx, organizationId);
      const m = await getMemberView(tx, organizationId, userId);
      if (!m) throw notFound('member');
      if (role === undefined || role === m.role) return;
      if (m.role === 'admin' && !m.disabled && (await countAdmins(tx, organizationId)) <= 1) {
        throw conflict('The last admin of an organization cannot be demoted; make another member admin first.');
      }
      await setMemberRole(tx, organizationId, userId, role);
    });
    c.get('access').reset(organizationId);
    return c.json(presentMember((await getMemberView(db, organizationId, userId)) as never, baseUrl(c), access), 200);
  });

  app.openapi(r.setMemberSso, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'admin');
    if (!(await markSsoMember(db, organizationId, userId))) throw notFound('member');
    return c.json(presentMember((await getMemberView(db, organizationId, userId)) as never, baseUrl(c), access), 200);
  });

  app.openapi(r.listMemberSpaces, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    if (userId !== c.get('caller').user.id && !access.isAdmin) throw forbidden("Only an admin can list another member's spaces.");
    const target = await loadOrgAccess(db, organizationId, userId);
    if (!target.member) throw notFound('member');
    const visibleIds = target.orgRole === null ? await visibleSpaceIds(db, target, { orgId: organizationId }) : undefined;
    const q = c.req.valid('query');
    // Newest first by default, as the specification's `order` default says.
    const page = await listSpaces(db, organizationId, { visibleIds, order: q.order ?? 'desc' }, q);
    const counts = await spaceCounts(
      db,
      page.rows.map((s) => s.id),
    );
    const base = baseUrl(c);
    return c.json(
      envelope(page, (s) => ({ permission: target.roleOn(s) as Role, space: presentSpace(s, access, base, counts.get(s.id) as never) })),
      200,
    );
  });

  app.openapi(r.listMemberTeams, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, userId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId);
    requireSeesMember(access, c.get('caller').user.id, userId);
    const target = await getMemberView(db, organizationId, userId);
    if (!target) throw notFound('member');
    const q = c.req.valid('query');
    const page = await listTeamsOfUser(db, organizationId, userId, q.title, q);
    const self = userId === c.get('caller').user.id;
    const base = baseUrl(c);
    return c.json(
      envelope(page, (t) => ({ team: presentTeam(t, access, self && t.member_role === 'owner', base), member: { role: t.member_role } })),
      200,
    );
  });
}
