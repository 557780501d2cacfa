import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { SignJWT } from 'jose';
import { presentCollectionList, presentSpaceList } from '../listing';
import { serverSecret } from '../../core/secrets';
import { getCollection, createCollection, listCollections } from '../../store/collections';
import { addMember, getMembership, markMemberSeen } from '../../store/members';
import { allProviders, ssoTokenOrg } from '../../store/saml';
import {
  createOrg,
  deleteLinkInvite,
  getAgentInstructions,
  getOrg,
  hostnameTakenByOtherOrg,
  listOrgsOfUser,
  orgHasSite,
  orgsWithEmailDomain,
  putAgentInstructions,
  updateOrg,
} from '../../store/organizations';
import { type SpaceRow, createSpace, getSpace, listSpaces, updateSpace } from '../../store/spaces';
import { spaceCounts } from '../../store/spaceCounts';
import { ensureUser } from '../../store/users';
import { loadOrgAccess } from '../../core/access';
import { visibleSpaceIds } from '../../core/visibleSpaces';
import { initSpaceContent } from '../../core/content/revisions';
import { templatePages, writeTemplate } from '../../core/content/templates';
import { atLeast } from '../../core/roles';
import { badRequest, forbidden, notFound } from '@quire/shared/apiErrors';
import type { ListQuery } from '@quire/shared/schemas/common';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { requireMergeRuleMembers } from '../../core/spaces';
import { presentCollection } from '../presenters/collection';
import { iso } from '../presenters/iso';
import { presentOrg } from '../presenters/organization';
import { presentSpace } from '../presenters/space';
import { baseUrl } from '../urls';
import { createDefaultSite, scheduleDefaultSpec } from './defaultSite';
import * as r from './routes';
import { cacheable } from '../responseCache';
import { tags } from '../../core/readModel';

const EMPTY_DOCUMENT = { object: 'document' as const, data: { schemaVersion: 1 }, nodes: [] };

export function registerOrganizations(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listOrganizations, async (c) => c.json(await organizationList(c, c.req.valid('query')), 200));

  app.openapi(r.createOrganization, async (c) => {
    const deps = c.get('deps');
    const b = c.req.valid('json');
    const q = c.req.valid('query');
    if (q.openapiUrl && !q.withDefaultSite) {
      throw badRequest('Invalid query parameter field "openapiUrl": it is only used with withDefaultSite=true.');
    }
    const me = c.get('caller').user.id;
    const { org, specId } = await deps.db.transaction(async (tx) => {
      const created = await createOrg(
        tx,
        b.title,
        me,
        b.emailDomains?.map((d) => d.toLowerCase()),
      );
      return q.withDefaultSite ? createDefaultSite(tx, created, me, q.openapiUrl) : { org: created, specId: undefined };
    });
    scheduleDefaultSpec(deps, specId);
    return c.json(presentOrg(org, await c.get('access').org(org.id), baseUrl(c)), 201);
  });

  app.openapi(r.getOrganization, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    cacheable(c, [tags.org(org.id), tags.access(org.id)]);
    return c.json(presentOrg(org, access, baseUrl(c)), 200);
  });

  app.openapi(r.updateOrganization, async (c) => {
    const { db } = c.get('deps');
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId, 'admin');
    const b = c.req.valid('json');
    if (b.defaultContent) {
      // Default content is a published site of this organization.
      if (!(await orgHasSite(db, org.id, b.defaultContent.site)))
        throw badRequest('Invalid body field "defaultContent.site": invalid default content space or collection provided.');
    }
    await requireMergeRuleMembers(c.get('deps').db, org.id, b.mergeRules);
    if (b.hostname) {
      if (await hostnameTakenByOtherOrg(db, b.hostname, org.id))
        throw badRequest('Invalid body field "hostname": already used by another organization.');
    }
    const updated = await updateOrg(db, org.id, { ...b, emailDomains: b.emailDomains?.map((d) => d.toLowerCase()) });
    return c.json(presentOrg(updated, access, baseUrl(c)), 200);
  });

  app.openapi(r.deleteLinkInvite, async (c) => {
    const { organizationId, inviteId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'admin');
    await deleteLinkInvite(c.get('deps').db, organizationId, inviteId);
    return c.body(null, 204);
  });

  app.openapi(r.joinOrganization, async (c) => {
    const { db } = c.get('deps');
    const { organizationId } = c.req.valid('param');
    const org = await getOrg(db, organizationId);
    if (!org) throw notFound('organization');
    const user = c.get('caller').user;
    if (await getMembership(db, org.id, user.id)) return c.body(null, 204);
    // A token from a SAML sign-in acts in its own organization only: it joins no other.
    if (await ssoTokenOrg(db, c.get('caller').tokenId)) throw notFound('organization');
    const domain = user.email.split('@')[1]?.toLowerCase() ?? '';
    // The caller is not a member and their verified domain does not open the organization:
    // they cannot see it, so it answers exactly as an unknown id (a 403 would confirm it exists).
    if (!user.email_verified || !org.email_domains.includes(domain)) throw notFound('organization');
    await addMember(db, org.id, user.id, org.default_role ?? 'read');
    return c.body(null, 204);
  });

  app.openapi(r.inviteMembers, async (c) => {
    const { db } = c.get('deps');
    const { org } = await requireOrg(c, c.req.valid('param').organizationId, 'admin');
    const b = c.req.valid('json');
    if (b.sso && (await allProviders(db, org.id)).length === 0) {
      throw badRequest('Invalid body field "sso": the organization has no SAML provider to sign these members in.');
    }
    const fallback = b.role === undefined ? (org.default_role ?? 'read') : b.role;
    const ids = await db.transaction(async (tx) => {
      const out: string[] = [];
      for (const entry of b.emails) {
        const { email, role } = typeof entry === 'string' ? { email: entry, role: fallback } : entry;
        const u = await ensureUser(tx, email.toLowerCase());
        await addMember(tx, org.id, u.id, role);
        out.push(u.id);
      }
      return out;
    });
    return c.json({ users: ids, invited: ids.length }, 200);
  });

  app.openapi(r.getAgentInstructions, async (c) => {
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const row = await getAgentInstructions(c.get('deps').db, org.id);
    const base = baseUrl(c);
    return c.json(
      {
        object: 'agent-instructions' as const,
        instructions: (row?.instructions as typeof EMPTY_DOCUMENT) ?? EMPTY_DOCUMENT,
        ...(row ? { updatedAt: iso(row.updated_at), ...(row.updated_by ? { updatedBy: row.updated_by } : {}) } : {}),
        urls: { location: `${base}/v1/orgs/${org.id}/agent-instructions` },
        permissions: { view: true, edit: access.isAdmin },
      },
      200,
    );
  });

  app.openapi(r.putAgentInstructions, async (c) => {
    const { org } = await requireOrg(c, c.req.valid('param').organizationId, 'admin');
    const { instructions } = c.req.valid('json');
    const row = await putAgentInstructions(c.get('deps').db, org.id, instructions, c.get('caller').user.id);
    return c.json(
      {
        object: 'agent-instructions' as const,
        instructions,
        updatedAt: iso(row.updated_at),
        updatedBy: row.updated_by ?? undefined,
        urls: { location: `${baseUrl(c)}/v1/orgs/${org.id}/agent-instructions` },
        permissions: { view: true, edit: true },
      },
      200,
    );
  });

  app.openapi(r.listOrgsByEmailDomain, async (c) => {
    const { db } = c.get('deps');
    const domain = c.req.valid('param').emailDomain.toLowerCase();
    const user = c.get('caller').user;
    // Only the caller's own (verified) domain is answered, so this cannot be used to map other companies.
    const own = user.email_verified && user.email.toLowerCase().endsWith(`@${domain}`);
    const orgs = own ? await orgsWithEmailDomain(db, domain) : [];
    const base = baseUrl(c);
    const organizations = await Promise.all(orgs.map(async (o) => presentOrg(o, await loadOrgAccess(db, o.id, user.id), base)));
    return c.json({ organizations }, 200);
  });

  app.openapi(r.pingOrganization, async (c) => {
    const { db } = c.get('deps');
    const { org } = await requireOrg(c, c.req.valid('param').organizationId);
    const user = c.get('caller').user;
    await markMemberSeen(db, org.id, user.id);
    const key = await serverSecret(db, 'visitor-claims');
    const platformVisitorClaims = await new SignJWT({ email: user.email, name: user.display_name, organization: org.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .setIssuer(baseUrl(c))
      .sign(key);
    // The public client reads the claims under its own brand's name; both carry the same token.
    return c.json({ platformVisitorClaims, gitbookVisitorClaims: platformVisitorClaims }, 200);
  });

  app.openapi(r.listOrgSpaces, async (c) => c.json(await orgSpaceList(c, c.req.valid('param').organizationId, c.req.valid('query')), 200));

  app.openapi(r.createOrgSpace, async (c) => {
    const { db } = c.get('deps');
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const b = c.req.valid('json');
    if (b.parent) {
      const parent = await getCollection(db, b.parent);
      if (!parent || parent.org_id !== org.id || !access.roleOn(parent)) throw notFound('collection');
      if (!access.can(parent, 'create')) throw forbidden('This needs the create role on the collection.');
    } else if (!atLeast(access.orgRole, 'create')) {
      throw forbidden('This needs the create role in the organization.');
    }
    // Checked before anything is written: a template that cannot be applied creates no space.
    const pages = b.template && (await templatePages(db, org.id, b.template.id, b.template.params?.contentRefs ?? {}, 'template.'));
    const space = await db.transaction(async (tx) => {
      const created = await createSpace(tx, org.id, {
        title: b.title ?? 'Untitled',
        emoji: b.emoji,
        parentId: b.parent,
        language: b.language,
      });
      await initSpaceContent(tx, created.id);
      if (pages) await writeTemplate(tx, { spaceId: created.id }, pages, c.get('caller').user.id);
      // Locked last: a template fills the space before edits are closed.
      if (b.editMode) await updateSpace(tx, created.id, { editMode: b.editMode });
      return (await getSpace(tx, created.id)) as SpaceRow;
    });
    const counts = await spaceCounts(db, [space.id]);
    return c.json(presentSpace(space, access, baseUrl(c), counts.get(space.id) as never), 201);
  });

  app.openapi(r.listOrgCollections, async (c) => {
    const { db } = c.get('deps');
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const q = c.req.valid('query');
    const page = await listCollections(db, org.id, q.nested ?? true, access.visibleCollectionIds(), q);
    return c.json(presentCollectionList(c, page, access), 200);
  });

  app.openapi(r.createOrgCollection, async (c) => {
    const { db } = c.get('deps');
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const b = c.req.valid('json');
    if (b.parent) {
      const parent = await getCollection(db, b.parent);
      if (!parent || parent.org_id !== org.id || !access.roleOn(parent)) throw notFound('collection');
      if (!access.can(parent, 'create')) throw forbidden('This needs the create role on the collection.');
    } else if (!atLeast(access.orgRole, 'create')) {
      throw forbidden('This needs the create role in the organization.');
    }
    const col = await createCollection(db, org.id, b.title ?? 'Untitled', b.parent ?? null, b.description);
    c.get('access').reset(org.id);
    return c.json(presentCollection(col, await c.get('access').org(org.id), baseUrl(c)), 200);
  });
}

/** The organizations of the caller (`GET /v1/orgs`). */
export async function organizationList(c: Context<AppEnv>, query: ListQuery) {
  const { db } = c.get('deps');
  const page = await listOrgsOfUser(db, c.get('caller').user.id, c.get('caller').tokenId, query);
  const base = baseUrl(c);
  const items = await Promise.all(page.rows.map(async (o) => presentOrg(o, await c.get('access').org(o.id), base)));
  return { items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

/** The spaces of an organization the caller may see (`GET /v1/orgs/{id}/spaces`). */
export async function orgSpaceList(c: Context<AppEnv>, organizationId: string, query: ListQuery) {
  const { db } = c.get('deps');
  const { org, access } = await requireOrg(c, organizationId);
  const visibleIds = access.orgRole === null ? await guestVisibleSpaceIds(c, org.id) : undefined;
  const page = await listSpaces(db, org.id, { visibleIds }, query);
  return presentSpaceList(c, page, access);
}

/** Spaces a guest can see: those granted to them directly or through a collection. */
export async function guestVisibleSpaceIds(c: Context<AppEnv>, orgId: string): Promise<string[]> {
  const { db } = c.get('deps');
  const access = await c.get('access').org(orgId);
  return visibleSpaceIds(db, access, { orgId });
}
